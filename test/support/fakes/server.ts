import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { readBody } from "../../../src/demo/upstream/readBody.ts"

/** A request as a fake API received it. */
export interface Received {
  readonly method: string
  /** Path and query, e.g. `/cgi-bin/webhook/send?key=k`. */
  readonly url: string
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly raw: string
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: any
  readonly at: number
}

/** What a fake answers: a status, a body (objects are JSON-encoded) and headers. */
export interface Answer {
  readonly status: number
  readonly body: unknown
  readonly headers?: Record<string, string>
  /** Cut the connection instead of answering (the request was still handled). */
  readonly drop?: boolean
}

export interface FakeServer {
  readonly url: string
  readonly received: ReadonlyArray<Received>
  /** The most requests it held at once, from their arrival until their answer was sent. */
  readonly mostInFlight: () => number
  close(): Promise<void>
}

const parse = (raw: string): unknown => {
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}

const write = (res: ServerResponse, answer: Answer) => {
  if (answer.drop === true) return void res.socket?.destroy()
  const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body)
  const type = typeof answer.body === "string" ? "text/plain" : "application/json"
  res.writeHead(answer.status, { "content-type": type, ...answer.headers })
  res.end(text)
}

/** A loopback HTTP server that records every request and answers with `handle`, after `delayMs`. */
export const startFakeServer = async (
  handle: (request: Received) => Answer,
  delayMs = 0
): Promise<FakeServer> => {
  const received: Array<Received> = []
  let inFlight = 0
  let most = 0
  const server = createServer((req, res) => {
    most = Math.max(most, ++inFlight)
    res.once("close", () => inFlight--)
    readBody(req).then(async (raw) => {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
      const request: Received = {
        method: req.method ?? "",
        url: req.url ?? "/",
        headers: { ...req.headers },
        raw,
        json: parse(raw),
        at: Date.now()
      }
      received.push(request)
      write(res, handle(request))
    }, () => res.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    mostInFlight: () => most,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

/** A loopback port nothing listens on (it was just released). */
export const closedPort = async (): Promise<number> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
