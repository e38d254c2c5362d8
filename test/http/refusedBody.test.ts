import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { chatBody } from "../support/http.ts"

const BODY_LIMIT = 4 * 1024

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({ bodyLimitBytes: BODY_LIMIT })
  secret = (await gateway.createKey()).secret
})
afterAll(() => gateway.close())

interface Answer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

/** One keep-alive connection, written by hand so a test decides when each byte goes and sees every answer on it. */
class Connection {
  readonly socket: Socket
  /** Resolves when the socket closed, with whether that was on an error. */
  readonly closedWithError: Promise<boolean>
  ended = false
  error: Error | undefined = undefined
  private buffer = Buffer.alloc(0)
  private wake: () => void = () => undefined

  constructor(port: number) {
    // Half-open, as an uploading client that goes on sending after the server's last byte until it notices.
    this.socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true })
    this.closedWithError = new Promise((resolve) => this.socket.once("close", resolve))
    this.socket.on("data", (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk])
      this.wake()
    })
    this.socket.on("end", () => {
      this.ended = true
      this.wake()
    })
    this.socket.on("error", (error) => {
      this.error = error
      this.wake()
    })
  }

  send(text: string | Buffer): void {
    this.socket.write(text)
  }

  /** The next answer on the connection; rejects if the connection ends or fails first. */
  async answer(): Promise<Answer> {
    for (;;) {
      const parsed = this.parse()
      if (parsed !== undefined) return parsed
      if (this.ended || this.error !== undefined) throw this.error ?? new Error("the connection ended")
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
  }

  /** Resolves once the server ended the connection (or it failed). */
  async closed(): Promise<void> {
    while (!this.ended && this.error === undefined) await new Promise<void>((resolve) => (this.wake = resolve))
  }

  private parse(): Answer | undefined {
    const end = this.buffer.indexOf("\r\n\r\n")
    if (end < 0) return undefined
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString().split("\r\n")
    const headers = Object.fromEntries(lines.map((line) => {
      const colon = line.indexOf(":")
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
    }))
    const length = Number(headers["content-length"] ?? 0)
    if (this.buffer.length < end + 4 + length) return undefined
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString()
    this.buffer = this.buffer.subarray(end + 4 + length)
    return { status: Number(statusLine!.split(" ")[1]), headers, body }
  }
}

const head = (length: number, authorization: string) =>
  `POST /api/v1/chat HTTP/1.1\r\nhost: gateway\r\nauthorization: ${authorization}\r\n` +
  `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n`

const goodRequest = () => {
  const body = JSON.stringify(chatBody())
  return head(Buffer.byteLength(body), `Bearer ${secret}`) + body
}

const port = () => Number(new URL(gateway.url).port)

describe("a request refused before its body was read", () => {
  it("a 401: the body is dropped and the same connection answers the next request", async () => {
    const connection = new Connection(port())
    const body = JSON.stringify(chatBody())
    connection.send(head(Buffer.byteLength(body), "Bearer pk_nope"))
    const refused = await connection.answer()
    expect(refused.status).toBe(401)
    expect(refused.headers.connection).not.toBe("close")

    gateway.upstream.enqueue({ type: "text", text: "still here" })
    connection.send(body)
    connection.send(goodRequest())
    const next = await connection.answer()
    expect(next.status).toBe(200)
    expect(next.body).toContain("still here")
    connection.socket.destroy()
  })

  it("a 413 for a declared length: the body is dropped and the same connection answers the next request", async () => {
    const connection = new Connection(port())
    const body = "x".repeat(BODY_LIMIT * 4)
    connection.send(head(body.length, `Bearer ${secret}`))
    const refused = await connection.answer()
    expect(refused.status).toBe(413)

    gateway.upstream.enqueue({ type: "text", text: "after the big one" })
    connection.send(body)
    connection.send(goodRequest())
    const next = await connection.answer()
    expect(next.status).toBe(200)
    expect(next.body).toContain("after the big one")
    connection.socket.destroy()
  })

  it("a huge body is not read: the answer says Connection: close and the connection closes cleanly", async () => {
    const connection = new Connection(port())
    connection.send(head(512 * 1024 * 1024, `Bearer ${secret}`))
    // The client goes on sending its body, and still does for a moment after the answer, as an uploading one would.
    const sending = setInterval(() => connection.send(Buffer.alloc(64 * 1024, 120)), 2)
    const refused = await connection.answer().finally(() => setTimeout(() => clearInterval(sending), 400))
    expect(refused.status).toBe(413)
    expect(refused.headers.connection).toBe("close")
    expect(JSON.parse(refused.body)).toMatchObject({ statusCode: 413 })
    await new Promise((resolve) => setTimeout(resolve, 500))
    await connection.closed()
    connection.socket.end()
    expect(await connection.closedWithError).toBe(false)
    expect(connection.error).toBeUndefined()
    expect(connection.ended).toBe(true)
  })
})
