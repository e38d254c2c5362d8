import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * Two loopback web servers for the browser tests. `site` (127.0.0.1) is the
 * one the tests allow; `privateTarget` (127.0.0.2, the same machine under an
 * address the policy refuses) records every request it gets, so a test can
 * prove the browser never reached it.
 */
export interface Sites {
  /** `http://127.0.0.1:PORT` */
  readonly site: string
  /** `http://127.0.0.2:PORT` */
  readonly privateTarget: string
  readonly privateHits: ReadonlyArray<string>
  /** Paths the allowed site served, with the Host header they came with. */
  readonly siteHits: ReadonlyArray<{ readonly path: string; readonly host: string }>
  /** Resolves when the next request to `/slow` (which never gets an answer) is dropped by its client. */
  readonly nextSlowDrop: () => Promise<void>
  readonly close: () => Promise<void>
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

const formPage = page(
  "Apply",
  `
  <h1>Apply for a job</h1>
  <form onsubmit="return false">
    <label>Name <input id="name" name="name"></label>
    <label>City <select id="city"><option value="">Pick one</option><option value="sh">Shanghai</option><option value="bj">Beijing</option></select></label>
    <button id="send" type="button">Send</button>
  </form>
  <p id="out"></p>
  <script>
    const out = document.getElementById("out")
    const name = document.getElementById("name")
    const city = document.getElementById("city")
    document.getElementById("send").addEventListener("click", () => { out.textContent = "Thanks " + name.value + " from " + city.value })
    name.addEventListener("keydown", (event) => { if (event.key === "Enter") out.textContent = "Entered " + name.value })
    city.addEventListener("change", () => { document.title = "Apply: " + city.value })
  </script>`
)

const listen = (server: Server, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port))
  })

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

export const startSites = async (): Promise<Sites> => {
  const privateHits: Array<string> = []
  const privateServer = createServer((request, response) => {
    privateHits.push(request.url ?? "")
    response.writeHead(200, { "content-type": "text/html" }).end(page("Secret", "<p>internal admin panel</p>"))
  })
  const privatePort = await listen(privateServer, "127.0.0.2")
  const privateTarget = `http://127.0.0.2:${privatePort}`

  let port = 0
  const slowDropWaiters: Array<() => void> = []
  const siteHits: Array<{ path: string; host: string }> = []
  const html = (response: ServerResponse, body: string) =>
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body)
  const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
    "/": (_, response) =>
      html(
        response,
        page("Home", `<h1>Welcome</h1><p>Open roles in Shanghai.</p><a id="next" href="/second">Next page</a>`)
      ),
    "/second": (_, response) => html(response, page("Second", "<h1>Second page</h1><p>Pay: 8000 CNY per month.</p>")),
    "/form": (_, response) => html(response, formPage),
    "/late": (_, response) =>
      html(
        response,
        page(
          "Late",
          `<p id="status">Loading…</p><script>setTimeout(() => { document.getElementById("status").textContent = "Ready now" }, 300)</script>`
        )
      ),
    "/long": (_, response) => html(response, page("Long", `<p>${"lorem ipsum ".repeat(2000)}</p>`)),
    "/redirect-private": (_, response) => response.writeHead(302, { location: `${privateTarget}/secret` }).end(),
    "/redirect-localhost": (_, response) =>
      response.writeHead(302, { location: `http://localhost:${port}/second` }).end(),
    "/subresource": (_, response) =>
      html(
        response,
        page(
          "Pixels",
          `<p>Image below</p><img src="${privateTarget}/pixel.png"><p id="status"></p>
        <script>
          const fetched = fetch("${privateTarget}/api").then(() => "fetched", () => "fetch failed")
          const socket = new Promise((resolve) => { new WebSocket("${
            privateTarget.replace("http:", "ws:")
          }/socket").onclose = () => resolve("socket closed") })
          Promise.all([fetched, socket]).then((outcomes) => { document.getElementById("status").textContent = outcomes.join(", ") })
        </script>`
        )
      ),
    "/slow": (request) => request.socket.once("close", () => slowDropWaiters.shift()?.())
  }
  const siteServer = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname
    siteHits.push({ path, host: request.headers.host ?? "" })
    const route = routes[path]
    if (route === undefined) response.writeHead(404, { "content-type": "text/plain" }).end("not found")
    else route(request, response)
  })
  port = await listen(siteServer, "127.0.0.1")

  return {
    site: `http://127.0.0.1:${port}`,
    privateTarget,
    privateHits,
    siteHits,
    nextSlowDrop: () => new Promise<void>((resolve) => slowDropWaiters.push(resolve)),
    close: async () => {
      await Promise.all([close(siteServer), close(privateServer)])
    }
  }
}
