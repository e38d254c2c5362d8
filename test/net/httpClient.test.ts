import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { readBody, send } from "../../src/net/httpClient.ts"
import { postJson } from "../../src/tools/messaging/postJson.ts"

let server: Server
let base: string

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/big") return res.end("x".repeat(200_000))
    if (req.url === "/moved") {
      res.writeHead(302, { location: "/elsewhere" })
      return res.end()
    }
    if (req.url === "/slow") return setTimeout(() => res.end("late"), 2_000)
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ method: req.method, length: req.headers["content-length"], body }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe("send and readBody", () => {
  it("reads a body whole, or only its first bytes", async () => {
    const whole = await readBody(await send(new URL(`${base}/big`), { method: "GET", headers: {} }), undefined)
    assert.strictEqual(whole.byteLength, 200_000)
    const capped = await readBody(await send(new URL(`${base}/big`), { method: "GET", headers: {} }), undefined, 1_000)
    assert.strictEqual(capped.byteLength, 1_000)
  })

  it("refuses a protocol other than http and https the way fetch fails", async () => {
    const error = await send(new URL("ftp://example.com/"), { method: "GET", headers: {} }).catch((e: unknown) => e)
    assert.instanceOf(error, TypeError)
    assert.strictEqual((error as TypeError).message, "fetch failed")
  })
})

const post = (path: string, timeoutMs = 5_000) =>
  postJson({ service: "the test hook", url: Redacted.make(`${base}${path}`), body: { hi: 1 }, timeoutMs })

describe("postJson over the one client", () => {
  it.effect("posts JSON with its length", () =>
    Effect.gen(function*() {
      const answer = yield* post("/echo")
      assert.strictEqual(answer.status, 200)
      expect(JSON.parse(answer.body)).toEqual({ method: "POST", length: "8", body: `{"hi":1}` })
      assert.strictEqual(answer.headers.get("content-type"), "application/json")
    }))

  it.effect("refuses a redirect, a slow answer and an oversized body as before", () =>
    Effect.gen(function*() {
      const moved = yield* Effect.flip(post("/moved"))
      assert.strictEqual(moved.message, "Could not reach the test hook (redirected; redirects are not followed).")
      const slow = yield* Effect.flip(post("/slow", 600))
      assert.strictEqual(slow.message, "the test hook did not answer within 1 s.")
      const big = yield* post("/big")
      assert.strictEqual(big.body.length, 64 * 1024)
    }))
})
