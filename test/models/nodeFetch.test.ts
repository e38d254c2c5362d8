import { assert, describe, it } from "@effect/vitest"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll } from "vitest"
import { nodeFetch } from "../../src/models/nodeFetch.ts"

let server: Server
let base: string
const seen: Array<{ method: string; headers: IncomingMessage["headers"]; body: string }> = []

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "/echo": (req, res) => {
    res.writeHead(201, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] })
    res.end(JSON.stringify({ method: req.method }))
  },
  // Two chunks, the second only after a pause: the body must stream, not arrive at once.
  "/slow": (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" })
    res.write("data: one\n\n")
    setTimeout(() => res.end("data: two\n\n"), 50)
  },
  "/cut": (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" })
    res.write("data: one\n\n", () => res.socket?.destroy())
  },
  "/hang": (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" })
    res.write("data: one\n\n")
  },
  "/empty": (_req, res) => {
    res.writeHead(204)
    res.end()
  },
  "/moved": (_req, res) => {
    res.writeHead(307, { location: "/echo" })
    res.end()
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const parts: Array<Buffer> = []
    req.on("data", (part: Buffer) => parts.push(part))
    req.on("end", () => {
      seen.push({ method: req.method ?? "", headers: req.headers, body: Buffer.concat(parts).toString("utf8") })
      routes[req.url ?? ""]?.(req, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const readAll = async (response: Response) => {
  const reader = response.body!.getReader()
  const chunks: Array<string> = []
  for (;;) {
    const next = await reader.read()
    if (next.done) return chunks
    chunks.push(new TextDecoder().decode(next.value))
  }
}

describe("nodeFetch", () => {
  it("sends method, headers and a string body with its length; answers status, headers and body", async () => {
    const body = JSON.stringify({ text: "héllo" })
    const response = await nodeFetch(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-x" },
      body
    })
    assert.strictEqual(response.status, 201)
    assert.strictEqual(response.headers.get("content-type"), "application/json")
    assert.deepStrictEqual(response.headers.getSetCookie(), ["a=1", "b=2"])
    assert.deepStrictEqual(await response.json(), { method: "POST" })
    const request = seen.at(-1)!
    assert.strictEqual(request.body, body)
    assert.strictEqual(request.headers["authorization"], "Bearer sk-x")
    assert.strictEqual(request.headers["content-length"], String(Buffer.byteLength(body)))
  })

  it("accepts Headers objects", async () => {
    const response = await nodeFetch(`${base}/echo`, {
      method: "POST",
      headers: new Headers({ "x-one": "1" }),
      body: "{}"
    })
    await response.text()
    assert.strictEqual(seen.at(-1)!.headers["x-one"], "1")
  })

  it("streams the body chunk by chunk", async () => {
    const response = await nodeFetch(`${base}/slow`, { method: "POST", body: "{}" })
    assert.deepStrictEqual(await readAll(response), ["data: one\n\n", "data: two\n\n"])
  })

  it("answers a body-less status with a null body", async () => {
    const response = await nodeFetch(`${base}/empty`, { method: "POST", body: "{}" })
    assert.strictEqual(response.status, 204)
    assert.strictEqual(response.body, null)
  })

  it("follows a redirect as the global fetch does", async () => {
    const response = await nodeFetch(`${base}/moved`, { method: "POST", body: "{}" })
    assert.strictEqual(response.status, 201)
    assert.deepStrictEqual(await response.json(), { method: "POST" })
  })

  it("rejects an unreachable server with TypeError('fetch failed') and the network error as cause", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await nodeFetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" }).catch((e: unknown) => e)
    assert.instanceOf(error, TypeError)
    assert.strictEqual((error as TypeError).message, "fetch failed")
    assert.strictEqual(((error as TypeError).cause as { code?: string }).code, "ECONNREFUSED")
  })

  it("errors a body cut short with TypeError('terminated')", async () => {
    const response = await nodeFetch(`${base}/cut`, { method: "POST", body: "{}" })
    const error = await readAll(response).catch((e: unknown) => e)
    assert.instanceOf(error, TypeError)
    assert.strictEqual((error as TypeError).message, "terminated")
  })

  it("rejects with the abort reason, before the answer and while reading the body", async () => {
    const early = new AbortController()
    early.abort()
    const before = await nodeFetch(`${base}/echo`, { method: "POST", body: "{}", signal: early.signal }).catch((
      e: unknown
    ) => e)
    assert.strictEqual((before as Error).name, "AbortError")

    const late = new AbortController()
    const response = await nodeFetch(`${base}/hang`, { method: "POST", body: "{}", signal: late.signal })
    const reader = response.body!.getReader()
    await reader.read()
    late.abort()
    const during = await reader.read().catch((e: unknown) => e)
    assert.strictEqual((during as Error).name, "AbortError")
  })
})
