import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"
import { makeNodeFetch } from "../../src/models/nodeFetch.ts"
import { toProviderFailure } from "../../src/models/ProviderFailure.ts"
import { readBody, send } from "../../src/net/httpClient.ts"
import { ResponseTimeout } from "../../src/net/responseTimeouts.ts"

let server: Server
let base: string

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    if (req.url === "/silent") return
    res.writeHead(200, { "content-type": "text/plain" })
    if (req.url === "/stalls") return void res.write("first")
    if (req.url === "/trickle") {
      let sent = 0
      const timer = setInterval(() => {
        res.write(`${sent}`)
        if (++sent === 8) {
          clearInterval(timer)
          res.end()
        }
      }, 40)
      return
    }
    res.end("x".repeat(4 * 1024 * 1024))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  return new Promise<void>((resolve) => server.close(() => resolve()))
})

const get = (path: string, timeouts: { firstByteMs?: number; idleMs?: number }) =>
  send(new URL(`${base}${path}`), { method: "GET", headers: {}, timeouts })

const causeOf = (error: unknown) => (error as { cause?: unknown }).cause

describe("response timeouts (docs/DESIGN.md §3.21)", () => {
  it("fails a request whose headers do not come in time as a failed fetch", async () => {
    const started = performance.now()
    const error = await get("/silent", { firstByteMs: 150 }).catch((e: unknown) => e)
    assert.instanceOf(error, TypeError)
    assert.strictEqual((error as TypeError).message, "fetch failed")
    assert.instanceOf(causeOf(error), ResponseTimeout)
    expect(causeOf(error)).toMatchObject({ phase: "first-byte", ms: 150, code: "ETIMEDOUT" })
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(toProviderFailure("p", error)).toMatchObject({
      _tag: "ProviderUnavailable",
      message: "p did not start answering within 0.15 s"
    })
  })

  it("cuts a body that goes silent, as a cut connection caused by the timeout", async () => {
    const exchange = await get("/stalls", { firstByteMs: 150, idleMs: 150 })
    const error = await readBody(exchange, undefined).catch((e: unknown) => e)
    assert.instanceOf(error, TypeError)
    assert.strictEqual((error as TypeError).message, "terminated")
    expect(causeOf(error)).toMatchObject({ phase: "idle", ms: 150 })
    expect(toProviderFailure("p", error)).toMatchObject({
      _tag: "ProviderUnavailable",
      message: "p sent nothing for 0.15 s"
    })
  })

  it("lets a body that keeps coming run longer than the idle timeout", async () => {
    const body = await readBody(await get("/trickle", { idleMs: 150 }), undefined)
    assert.strictEqual(body.toString(), "01234567")
  })

  it("does not count the time a reader holds the body paused", async () => {
    const { response } = await get("/big", { idleMs: 100 })
    const received = await new Promise<number>((resolve, reject) => {
      let size = 0
      response.on("data", (chunk: Buffer) => (size += chunk.byteLength))
      response.pause()
      void sleep(600).then(() => response.resume())
      response.once("end", () => resolve(size))
      response.once("error", reject)
    })
    assert.strictEqual(received, 4 * 1024 * 1024)
  })

  it("a body nobody reads yet is not the server's silence", async () => {
    const exchange = await get("/big", { idleMs: 100 })
    await sleep(400)
    assert.strictEqual((await readBody(exchange, undefined)).byteLength, 4 * 1024 * 1024)
  })

  it("applies to the providers' fetch: a stalled body errors its stream", async () => {
    const fetch = makeNodeFetch({ firstByteMs: 150, idleMs: 150 })
    const silent = await fetch(`${base}/silent`, { method: "POST", body: "{}" }).catch((e: unknown) => e)
    assert.instanceOf(causeOf(silent), ResponseTimeout)
    const response = await fetch(`${base}/stalls`, { method: "POST", body: "{}" })
    const error = await response.text().catch((e: unknown) => e)
    assert.instanceOf(error, TypeError)
    expect(causeOf(error)).toMatchObject({ phase: "idle" })
  })

  it("gives a provider's whole answer, whose headers come with it, its own limit (docs/DESIGN.md §3.21)", async () => {
    const fetch = makeNodeFetch({ firstByteMs: 150, idleMs: 150 }, 600)
    const started = performance.now()
    const whole = await fetch(`${base}/silent`, { method: "POST", body: `{"model":"m","note":"\\"stream\\":true"}` })
      .catch((e: unknown) => e)
    expect(causeOf(whole)).toMatchObject({ phase: "first-byte", ms: 600 })
    expect(performance.now() - started).toBeGreaterThanOrEqual(590)
    const streamed = await fetch(`${base}/silent`, { method: "POST", body: `{"model":"m","stream":true}` })
      .catch((e: unknown) => e)
    expect(causeOf(streamed)).toMatchObject({ phase: "first-byte", ms: 150 })
  })
})
