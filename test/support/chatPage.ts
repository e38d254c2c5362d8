import { build } from "esbuild"
import { mkdirSync } from "node:fs"
import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join, resolve } from "node:path"
import { type Browser, chromium } from "playwright-core"

/** Where the page tests leave their screenshots. */
const artifacts = resolve(import.meta.dirname, "../../test-results")

/** A browser page's script, bundled from TypeScript (the AI SDK's `Chat` included): nothing loads from other hosts. */
const bundlePage = async (entry: string): Promise<string> => {
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent"
  })
  return bundle.outputFiles[0]!.text
}

/** A page and the gateway on one origin: `/page.js` and the page here, `/api/*` passed through to the gateway. */
const startPageSite = async (
  gatewayUrl: string,
  html: string,
  script: string
): Promise<{ readonly server: Server; readonly url: string }> => {
  const target = new URL(gatewayUrl)
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/api/")) {
      const upstream = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }
      )
      // A page that goes away (a reload) closes its request: so does the one passed on.
      res.once("close", () => upstream.destroy())
      req.pipe(upstream)
      return
    }
    const [type, body] = req.url === "/page.js" ? ["text/javascript", script] : ["text/html", html]
    res.writeHead(200, { "content-type": `${type}; charset=utf-8` }).end(body)
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

/** A page site as `startPageSite` serves it, bundled from `entry`, and a headless Chromium to open it with. */
export interface ChatPages {
  readonly url: string
  readonly browser: Browser
  /** The path of a screenshot named `name` (in test-results/). */
  readonly screenshot: (name: string) => string
  readonly close: () => Promise<void>
}

export const startChatPages = async (gatewayUrl: string, html: string, entry: string): Promise<ChatPages> => {
  const { server, url } = await startPageSite(gatewayUrl, html, await bundlePage(entry))
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, chromiumSandbox: false })
  mkdirSync(artifacts, { recursive: true })
  return {
    url,
    browser,
    screenshot: (name) => join(artifacts, name),
    close: async () => {
      await browser.close()
      server.close()
    }
  }
}
