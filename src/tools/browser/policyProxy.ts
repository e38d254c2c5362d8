import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse
} from "node:http"
import { type AddressInfo, connect, type Socket } from "node:net"
import type { Duplex } from "node:stream"
import type { UrlPolicy } from "../outbound/urlPolicy.ts"

/** A request the policy refused: the URL (plain HTTP) or `host:port` (a tunnel), and why. */
export interface Refusal {
  readonly target: string
  readonly reason: string
}

export interface PolicyProxy {
  /** `http://127.0.0.1:<port>`, for the browser context's `proxy.server`. */
  readonly server: string
  readonly close: () => Promise<void>
}

// Connection-level headers belong to one hop; the rest travel on unchanged.
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "trailer",
  "upgrade"
])

const forwardedHeaders = (headers: IncomingHttpHeaders): IncomingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name)))

const refuse = (response: ServerResponse, status: number, text: string) => {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" })
  response.end(`${text}\n`)
}

/**
 * The browser's only way out. Every request of a browser context (pages,
 * redirects, sub-resources, WebSockets, HTTPS tunnels) goes through this
 * forward proxy, which checks the target host with the policy after DNS
 * resolution and connects to the address it checked. Request interception
 * in Playwright cannot do this: it never sees the hops of a redirect.
 */
export const startPolicyProxy = async (
  policy: UrlPolicy,
  onRefusal: (refusal: Refusal) => void
): Promise<PolicyProxy> => {
  const agent = new Agent({ keepAlive: true })
  const sockets = new Set<Duplex>()
  const track = (socket: Duplex) => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
  }

  const forward = async (incoming: IncomingMessage, response: ServerResponse) => {
    let target: URL
    try {
      target = new URL(incoming.url ?? "")
    } catch {
      return refuse(response, 400, "parley browser proxy: expected an absolute URL")
    }
    if (target.protocol !== "http:") {
      return refuse(response, 400, `parley browser proxy: ${target.protocol} is not proxied`)
    }
    const decision = await policy.check(target.hostname)
    if (decision._tag === "Unresolved") return refuse(response, 502, `parley browser proxy: ${decision.reason}`)
    if (decision._tag === "Refused") {
      onRefusal({ target: target.href, reason: decision.reason })
      return refuse(response, 403, `Refused by parley's browser policy: ${decision.reason}`)
    }
    const outgoing = request({
      host: decision.address,
      port: target.port === "" ? 80 : Number(target.port),
      method: incoming.method,
      path: `${target.pathname}${target.search}`,
      headers: forwardedHeaders(incoming.headers),
      setHost: false,
      agent
    })
    outgoing.on("response", (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.headers))
      answer.pipe(response)
    })
    outgoing.on("error", () => {
      if (response.headersSent) response.destroy()
      else refuse(response, 502, `parley browser proxy: cannot reach ${target.host}`)
    })
    response.on("close", () => outgoing.destroy())
    incoming.pipe(outgoing)
  }

  const tunnel = async (incoming: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client)
    client.on("error", () => client.destroy())
    const answer = (status: string) => client.end(`HTTP/1.1 ${status}\r\ncontent-length: 0\r\n\r\n`)
    let target: URL
    try {
      target = new URL(`http://${incoming.url ?? ""}`)
    } catch {
      return answer("400 Bad Request")
    }
    const decision = await policy.check(target.hostname)
    if (decision._tag === "Unresolved") return answer("502 Bad Gateway")
    if (decision._tag === "Refused") {
      onRefusal({ target: target.host, reason: decision.reason })
      return answer("403 Forbidden")
    }
    const upstream: Socket = connect(Number(target.port === "" ? 443 : target.port), decision.address)
    track(upstream)
    let established = false
    upstream.on("error", () => established ? client.destroy() : answer("502 Bad Gateway"))
    upstream.on("connect", () => {
      established = true
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n")
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    client.on("close", () => upstream.destroy())
    upstream.on("close", () => client.destroy())
  }

  const server = createServer((incoming, response) => {
    forward(incoming, response).catch(() => response.destroy())
  })
  server.on("connect", (incoming, client, head) => {
    tunnel(incoming, client, head).catch(() => client.destroy())
  })
  server.on("connection", track)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
        agent.destroy()
      })
  }
}
