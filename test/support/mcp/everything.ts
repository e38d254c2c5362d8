import { type ChildProcess, spawn } from "node:child_process"
import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import {
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  DEFAULT_MCP_LIST_TIMEOUT_MS,
  type McpServerConfig
} from "../../../src/config/McpServerConfig.ts"
import { freePort } from "../freePort.ts"

/** The reference server's entry point (`@modelcontextprotocol/server-everything`, a devDependency). */
export const EVERYTHING_BIN = fileURLToPath(
  import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js")
)

export interface RunningServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:PORT/mcp`. */
  readonly url: string
  readonly close: () => Promise<void>
}

/** The reference server in its streamable-HTTP mode on a free loopback port. */
export const startEverythingHttp = async (): Promise<RunningServer> => {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_BIN, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"]
  })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server-everything did not start")), 15_000)
    child.stderr!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening on port")) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once("exit", (code) => reject(new Error(`server-everything exited with ${code}`)))
  })
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve())
        child.kill()
      })
  }
}

/** A JSON-RPC message a client POSTed, as the proxy saw it. */
export interface Posted {
  readonly method?: string
  readonly id?: unknown
  readonly params?: any
}

/** A pass-through proxy in front of an HTTP MCP server that records what clients POST (to see cancellations arrive). */
export const startRecordingProxy = async (
  target: string
): Promise<RunningServer & { readonly posted: Array<Posted> }> => {
  const upstream = new URL(target)
  const posted: Array<Posted> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks)
      if (req.method === "POST" && body.length > 0) {
        const parsed = JSON.parse(body.toString())
        for (const message of Array.isArray(parsed) ? parsed : [parsed]) posted.push(message)
      }
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: upstream.pathname,
          method: req.method,
          headers: req.headers
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }
      )
      forward.on("error", () => res.destroy())
      res.on("close", () => forward.destroy())
      forward.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    posted,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** The config file's entry for an HTTP MCP server, no headers, default timeouts. */
export const httpServerEntry = (id: string, url: string): McpServerConfig => ({
  id,
  transport: "http",
  url,
  headers: {},
  callTimeoutMs: DEFAULT_MCP_CALL_TIMEOUT_MS,
  listTimeoutMs: DEFAULT_MCP_LIST_TIMEOUT_MS
})
