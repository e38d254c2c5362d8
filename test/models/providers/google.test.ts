import { createGoogleGenerativeAI } from "@ai-sdk/google"
import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { startGemini } from "../../support/upstreams/gemini.ts"
import type { ScriptedUpstream } from "../../support/upstreams/scripted.ts"
import { providerSuite } from "./providerSuite.ts"

const API_KEY = "AIzaSyD-parley-test-0123456789abcdefghij"

providerSuite({
  type: "google",
  apiKey: API_KEY,
  startUpstream: startGemini,
  keyOf: (request) => request.headers["x-goog-api-key"] as string | undefined,
  sdkModel: (baseURL, apiKey, modelId) => createGoogleGenerativeAI({ baseURL, apiKey }).chat(modelId),
  sdkProvider: "google.generative-ai",
  wholeAnswers: true,
  streamErrors: true,
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, reasoningTokens: 5, cachedInputTokens: 32 }
})

// Gemini says "stream" in its path (`:streamGenerateContent`), not in its body: the stream still gets the
// first-byte timeout, not the whole answer's (docs/DESIGN.md §3.21).
describe("provider type google: timeouts", () => {
  let upstream: ScriptedUpstream
  let gateway: TestGateway
  let secret: string
  beforeAll(async () => {
    upstream = await startGemini(API_KEY)
    gateway = await startGateway({
      providers: [{
        id: "g",
        type: "google",
        baseURL: upstream.url,
        apiKey: Redacted.make(API_KEY),
        models: [{ id: "gemini-2.5-flash", name: "Gemini 2.5 Flash", categories: ["chat"] }],
        timeouts: { firstByteMs: 150, idleMs: 5_000, answerMs: 30_000 }
      }]
    })
    ;({ secret } = await gateway.createKey())
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

  it("a stream that does not start within the first-byte timeout is 503 after the retries", async () => {
    upstream.enqueue(...Array.from({ length: 3 }, () => ({ type: "text" as const, text: "late", delayMs: 1_000 })))
    const started = Date.now()
    const response = await postJson(`${gateway.url}/api/v1/chat`, {
      model: "g/gemini-2.5-flash",
      messages: [{ role: "user", content: "hi" }],
      stream: true
    }, bearer(secret))
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ details: { provider: "g" } })
    expect(upstream.requests.every((request) => request.streaming)).toBe(true)
    // Three attempts of 150 ms and the backoff between them, far less than the whole answer's 30 s.
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})
