import { WebSocket } from "ws"

/** A message the server sent, parsed. */
export type SocketEvent = Record<string, any>

// A turn's last message: its response's end, or an error before it began.
const TERMINAL = /^(response\.(completed|incomplete|failed)|error)$/

/**
 * A plain WebSocket client (the `ws` package) on a gateway's `/v1/responses`
 * in WebSocket mode: `turn` sends one message and reads until the turn's
 * last event.
 */
export class ResponsesSocket {
  private readonly received: Array<SocketEvent> = []
  private waiting: (() => void) | undefined = undefined
  /** Every message as it came, text. */
  readonly raw: Array<string> = []
  closed: { readonly code: number; readonly reason: string } | undefined = undefined

  readonly ws: WebSocket

  private constructor(ws: WebSocket) {
    this.ws = ws
    ws.on("message", (data) => {
      this.raw.push(data.toString())
      this.received.push(JSON.parse(data.toString()))
      this.waiting?.()
    })
    ws.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() }
      this.waiting?.()
    })
  }

  /** Opened with `Authorization: Bearer <secret>`; rejects with the refusal's status and body when the upgrade is refused. */
  static open(gatewayUrl: string, secret: string | undefined, path = "/v1/responses"): Promise<ResponsesSocket> {
    const url = `${gatewayUrl.replace(/^http/, "ws")}${path}`
    const ws = new WebSocket(url, secret === undefined ? {} : { headers: { authorization: `Bearer ${secret}` } })
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(new ResponsesSocket(ws)))
      ws.once("unexpected-response", (_req, res) => {
        let body = ""
        res.on("data", (chunk: Buffer) => body += chunk.toString())
        res.on("end", () => reject(new UpgradeRefused(res.statusCode ?? 0, res.headers, body)))
      })
      ws.once("error", reject)
    })
  }

  send(message: unknown): void {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message))
  }

  /** The next events up to a turn's last one (or the connection's close), in order. */
  async untilTurnEnds(timeoutMs = 10_000): Promise<Array<SocketEvent>> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const end = this.received.findIndex((event) => TERMINAL.test(event.type))
      if (end !== -1) return this.received.splice(0, end + 1)
      if (this.closed !== undefined) return this.received.splice(0)
      if (Date.now() > deadline) throw new Error(`no turn's end in ${timeoutMs} ms: ${JSON.stringify(this.received)}`)
      await new Promise<void>((resolve) => {
        this.waiting = resolve
        setTimeout(resolve, 50)
      })
    }
  }

  /** `response.create` with `body`, and its events. */
  turn(body: Record<string, unknown>): Promise<Array<SocketEvent>> {
    this.send({ type: "response.create", ...body })
    return this.untilTurnEnds()
  }

  /** Resolves with the close once the server closed the connection. */
  async untilClosed(timeoutMs = 10_000): Promise<{ readonly code: number; readonly reason: string }> {
    const deadline = Date.now() + timeoutMs
    while (this.closed === undefined) {
      if (Date.now() > deadline) throw new Error(`not closed in ${timeoutMs} ms`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return this.closed
  }

  close(): void {
    this.ws.close()
  }
}

/** An upgrade the gateway answered in HTTP. */
export class UpgradeRefused extends Error {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string

  constructor(status: number, headers: Record<string, string | Array<string> | undefined>, body: string) {
    super(`upgrade refused: ${status} ${body}`)
    this.status = status
    this.headers = headers
    this.body = body
  }
}
