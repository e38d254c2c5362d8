import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A local RFC 7662 introspection endpoint for tests: answers each token as
 * `answers` says (a JSON body, or "slow" / "fail"), and records what it was
 * asked and with which credentials.
 */
export type FakeAnswer = Record<string, unknown> | "slow" | "fail"

export interface FakeIntrospection {
  readonly url: string
  readonly answers: Map<string, FakeAnswer>
  readonly asked: Array<{ readonly token: string | null; readonly authorization: string | undefined }>
  readonly close: () => Promise<void>
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const parts: Array<Buffer> = []
    req.on("data", (part: Buffer) => parts.push(part))
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")))
  })

export const startIntrospection = async (): Promise<FakeIntrospection> => {
  const answers = new Map<string, FakeAnswer>()
  const asked: FakeIntrospection["asked"] = []
  const server = createServer(async (req, res) => {
    const form = new URLSearchParams(await body(req))
    const token = form.get("token")
    asked.push({ token, authorization: req.headers.authorization })
    const answer = answers.get(token ?? "") ?? { active: false }
    if (answer === "slow") return setTimeout(() => res.end(JSON.stringify({ active: true })), 5_000).unref()
    if (answer === "fail") {
      res.writeHead(500)
      return res.end("boom")
    }
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify(answer))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/introspect`,
    answers,
    asked,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
