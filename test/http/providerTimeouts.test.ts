import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

// A provider that never answers must not hold the client for the run's 300 s (docs/DESIGN.md §3.21).
let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({ providerTimeouts: { firstByteMs: 300, idleMs: 300, answerMs: 1_500 } })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const chat = (body: Record<string, unknown>) => postJson(`${gateway.url}/api/v1/chat`, chatBody(body), bearer(secret))
const requestsSince = (before: number) => gateway.upstream.requests.length - before

describe("provider timeouts (docs/DESIGN.md §3.21)", () => {
  it("retries a provider that does not start answering, then answers 503", async () => {
    const before = gateway.upstream.requests.length
    gateway.upstream.enqueue(
      ...Array.from({ length: 3 }, () => ({ type: "text" as const, text: "late", delayMs: 10_000 }))
    )
    const started = performance.now()
    const response = await chat({ stream: true })
    expect(response.status).toBe(503)
    const body = await response.json()
    expect(body).toMatchObject({ error: "ServiceUnavailable", details: { provider: "test" } })
    expect(requestsSince(before)).toBe(3)
    // Three silent attempts and the backoff between them (1 s, 2 s), far from the run's limit.
    expect(performance.now() - started).toBeLessThan(8_000)
  }, 15_000)

  it("answers from the retry when only the first attempt was silent", async () => {
    const before = gateway.upstream.requests.length
    // Past even a whole answer's limit.
    gateway.upstream.enqueue({ type: "text", text: "late", delayMs: 10_000 }, { type: "text", text: "on time" })
    const response = await chat({ stream: false })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(JSON.stringify(body.data.messages.at(-1))).toContain("on time")
    expect(requestsSince(before)).toBe(2)
  }, 15_000)

  it("waits longer for a whole answer, which comes all at once, than for a stream to start", async () => {
    const before = gateway.upstream.requests.length
    gateway.upstream.enqueue({ type: "text", text: "whole but slow", delayMs: 800 })
    const response = await chat({ stream: false })
    expect(response.status).toBe(200)
    expect(JSON.stringify((await response.json()).data.messages.at(-1))).toContain("whole but slow")
    expect(requestsSince(before)).toBe(1)
    expect(gateway.upstream.requests.at(-1)?.body.stream).toBeUndefined()
  }, 15_000)

  it("retries a stream that sends its headers and then nothing, then answers 503", async () => {
    const before = gateway.upstream.requests.length
    gateway.upstream.enqueue(...Array.from({ length: 3 }, () => ({ type: "hang" as const })))
    const response = await chat({ stream: true })
    expect(requestsSince(before)).toBe(3)
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: "ServiceUnavailable", details: { provider: "test" } })
  }, 15_000)

  it("ends a stream that goes silent after it began with an error chunk and a finish chunk", async () => {
    const before = gateway.upstream.requests.length
    const frame = (delta: object) =>
      `data: ${
        JSON.stringify({
          id: "c1",
          object: "chat.completion.chunk",
          created: 0,
          model: "m1",
          choices: [{ index: 0, delta }]
        })
      }\n\n`
    gateway.upstream.enqueue({
      type: "raw",
      body: [frame({ role: "assistant", content: "first " }), frame({ content: "too late" })],
      chunkDelayMs: 5_000
    })
    const response = await chat({ stream: true })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(requestsSince(before)).toBe(1)
    expect(text).toContain(`"delta":"first "`)
    expect(text).toMatch(/"type":"error","errorText":"The model provider \\"test\\" is unavailable/)
    expect(text).toMatch(/data: \{"type":"finish"[^\n]*\}\n\ndata: \[DONE\]\n\n$/)
  }, 15_000)

  it("lets a slow but steady stream finish", async () => {
    gateway.upstream.enqueue({ type: "text", text: "one two three four", chunkDelayMs: 100 })
    const response = await chat({ stream: true })
    const text = await response.text()
    expect(text).not.toContain(`"type":"error"`)
    expect(text).toContain(`"delta":"four"`)
  }, 15_000)
})
