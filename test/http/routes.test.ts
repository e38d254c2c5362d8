import { assert, describe, it } from "@effect/vitest"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import type { UIMessage } from "ai"
import { Effect, Redacted, Schema } from "effect"
import { afterAll, beforeAll, beforeEach, expect } from "vitest"
import type { RouteConfig } from "../../src/config/AppConfig.ts"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Reply, Upstream } from "../../src/demo/upstream/types.ts"
import { ProviderCooldowns } from "../../src/models/ProviderCooldowns.ts"
import { chatThroughAiSdk } from "../support/chatClient.ts"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

// Two scripted providers, `test` (the harness's) and `alt`, and routes over their `m1` (docs/DESIGN.md §15).
const route = (id: string, strategy: RouteConfig["strategy"], extra: Partial<RouteConfig> = {}): RouteConfig => ({
  id: `smart/${id}`,
  provider: "smart",
  strategy,
  targets: [{ model: "test/m1", weight: 1 }, { model: "alt/m1", weight: 1 }],
  ...extra
})

let gateway: TestGateway
let alt: Upstream
let secret: string
const lines: Array<string> = []
const spans = new InMemorySpanExporter()

beforeAll(async () => {
  alt = await startUpstream({ apiKey: UPSTREAM_API_KEY })
  gateway = await startGateway({
    providers: [{
      id: "alt",
      type: "openai-compatible",
      baseURL: alt.url,
      apiKey: Redacted.make(UPSTREAM_API_KEY),
      models: [{ id: "m1", name: "Alt One", categories: ["chat"] }]
    }],
    config: {
      routes: [
        route("fb", "fallback"),
        route("quick", "fallback", { firstChunkTimeoutMs: 300 }),
        route("lb", "loadbalance", {
          targets: [{ model: "test/m1", weight: 3 }, { model: "alt/m1", weight: 1 }]
        })
      ]
    },
    observe: { logSink: (line) => void lines.push(line), spanProcessor: new SimpleSpanProcessor(spans) }
  })
  ;({ secret } = await gateway.createKey())
})
// Each case starts with no provider cooling down (routeCooldowns.test.ts is about them).
const noCooldowns = () => {
  const cooldowns = gateway.service(ProviderCooldowns)
  return Effect.runPromise(Effect.andThen(cooldowns.answered("test"), cooldowns.answered("alt")))
}
beforeEach(noCooldowns)
afterAll(async () => {
  await gateway.close()
  await alt.close()
})

const counts = () => ({ test: gateway.upstream.requests.length, alt: alt.requests.length })
const since = (before: { test: number; alt: number }) => {
  const now = counts()
  return { test: now.test - before.test, alt: now.alt - before.alt }
}
const chat = (model: string, body: Record<string, unknown> = {}, key = secret) =>
  postJson(`${gateway.url}/api/v1/chat`, chatBody({ model, ...body }), bearer(key))
const answerText = async (response: Response) => JSON.stringify((await response.json()).data.messages.at(-1))
const streamedCompletion = () =>
  postJson(`${gateway.url}/v1/chat/completions`, {
    model: "smart/fb",
    messages: [{ role: "user", content: "Hello" }],
    stream: true
  }, bearer(secret))
const user: Array<UIMessage> = [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hello" }] }]
const textOf = (message: UIMessage | undefined) =>
  message?.parts.flatMap((part) => part.type === "text" ? [part.text] : []).join("")

describe("routes (docs/DESIGN.md §15)", () => {
  it("a target that refuses with 429 or 500, after its own retries, leaves the answer to the next", async () => {
    for (const status of [429, 500]) {
      await noCooldowns()
      const before = counts()
      // Retry-After 0: the target's retries (as every model call's) go at once.
      const refusal: Reply = { type: "error", status, retryAfter: 0 }
      gateway.upstream.enqueue(refusal, refusal, refusal)
      alt.enqueue({ type: "text", text: `served by alt after ${status}` })
      const response = await chat("smart/fb")
      expect(response.status).toBe(200)
      expect(await answerText(response)).toContain(`served by alt after ${status}`)
      expect(since(before)).toEqual({ test: 3, alt: 1 })
    }
  })

  it("a target that refuses the request itself (400) is not left: its refusal is the answer", async () => {
    const before = counts()
    gateway.upstream.enqueue({ type: "error", status: 400 })
    const response = await chat("smart/fb")
    expect(response.status).toBe(500)
    expect(since(before)).toEqual({ test: 1, alt: 0 })
  })

  it("a target with no first chunk within firstChunkTimeout is left for the next, which serves in time", async () => {
    const before = counts()
    gateway.upstream.enqueue({ type: "text", text: "too late", delayMs: 5_000 })
    alt.enqueue({ type: "text", text: "quick answer" })
    const started = performance.now()
    const response = await chat("smart/quick", { stream: true })
    const body = await response.text()
    expect(response.status).toBe(200)
    expect(performance.now() - started).toBeLessThan(300 + 1_000)
    expect(body).toContain("quick")
    expect(body).not.toContain("too late")
    expect(since(before)).toEqual({ test: 1, alt: 1 })
    // The slow call was given up, not left running.
    expect((await gateway.upstream.waitForAbort(2_000)).aborted).toBe(true)
  })

  it.effect.prop(
    "a stream that dies mid-answer on /api/v1/chat is retried on the next target after reset-step: the client shows only the retry",
    [Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 6 }))],
    ([cut]) =>
      Effect.promise(async () => {
        await noCooldowns()
        const before = counts()
        gateway.upstream.enqueue({ type: "broken", afterChunks: cut })
        alt.enqueue({ type: "text", text: "the whole second answer", usage: { promptTokens: 7, completionTokens: 5 } })
        const { chunks, message } = await chatThroughAiSdk(gateway.url, secret, user, { model: "smart/fb" })
        const types = chunks.map((chunk) => chunk.type)
        assert.include(types, "reset-step")
        // The broken attempt's parts went out before the reset, the retry's after it.
        const reset = types.indexOf("reset-step")
        assert.include(JSON.stringify(chunks.slice(0, reset)), "part 1")
        assert.notInclude(JSON.stringify(chunks.slice(reset)), "part 1")
        assert.strictEqual(types.filter((type) => type === "start-step").length, 1)
        assert.strictEqual(textOf(message), "the whole second answer")
        assert.deepStrictEqual(message?.parts.map((part) => part.type), ["step-start", "text"])
        assert.deepStrictEqual(since(before), { test: 1, alt: 1 })
      }),
    { timeout: 20_000, arbitrary: { runs: 6 } }
  )

  it("the same death on /v1/chat/completions is the error it always was: no failover after a byte", async () => {
    const before = counts()
    gateway.upstream.enqueue({ type: "broken", afterChunks: 2 })
    const response = await streamedCompletion()
    expect(response.status).toBe(200)
    const body = await response.text()
    expect(body).toContain("part 1")
    // OpenAI's error event, as any provider failure after the stream began (docs/DESIGN.md §14).
    expect(body).toContain(`"code":"provider_unavailable"`)
    expect(body).not.toContain("reset-step")
    expect(since(before)).toEqual({ test: 1, alt: 0 })
  })

  it("/v1/chat/completions still fails over before its first byte", async () => {
    const before = counts()
    gateway.upstream.enqueue(...Array.from({ length: 3 }, (): Reply => ({ type: "error", status: 503, retryAfter: 0 })))
    alt.enqueue({ type: "text", text: "alt via completions" })
    const response = await streamedCompletion()
    expect(response.status).toBe(200)
    expect(await response.text()).toContain("completions")
    expect(since(before)).toEqual({ test: 3, alt: 1 })
  })

  it("loadbalance picks its targets by weight (3:1 over 200 requests), each request served once", async () => {
    const before = counts()
    for (let i = 0; i < 200; i++) expect((await chat("smart/lb")).status).toBe(200)
    const served = since(before)
    expect(served.test + served.alt).toBe(200)
    // 150 expected; five standard deviations (~6) either side.
    expect(served.test).toBeGreaterThan(120)
    expect(served.test).toBeLessThan(180)
  })

  it("a key that may use a route may use its targets through it, and only through it", async () => {
    const routeOnly = await gateway.createKey({ models: ["smart/fb"] })
    expect((await chat("smart/fb", {}, routeOnly.secret)).status).toBe(200)
    expect((await chat("test/m1", {}, routeOnly.secret)).status).toBe(403)
    expect((await chat("alt/m1", {}, routeOnly.secret)).status).toBe(403)
    const targetOnly = await gateway.createKey({ models: ["test/m1", "alt/m1"] })
    expect((await chat("smart/fb", {}, targetOnly.secret)).status).toBe(403)
  })

  it("the ledger row, the request line and the request's span name the target that served, and the attempts", async () => {
    const { id, secret: own } = await gateway.createKey()
    gateway.upstream.enqueue(
      { type: "broken", afterChunks: 2 }
    )
    alt.enqueue({ type: "text", text: "served", usage: { promptTokens: 11, completionTokens: 4 } })
    const { message } = await chatThroughAiSdk(gateway.url, own, user, { model: "smart/fb" })
    expect(textOf(message)).toBe("served")
    const [row] = await gateway.ledgerRows({ keyId: id })
    expect(row).toMatchObject({ model: "smart/fb", target: "alt/m1", status: 200, inputTokens: 11, outputTokens: 4 })
    const line = lines.map((text) => JSON.parse(text)).find((entry) => entry.msg === "request" && entry.keyId === id)
    expect(line).toMatchObject({ model: "smart/fb", target: "alt/m1", attempts: 2 })
    const span = spans.getFinishedSpans().find((entry) => entry.attributes["parley.key_id"] === id)
    expect(span?.attributes).toMatchObject({ "parley.target": "alt/m1", "parley.attempts": 2 })
    // A model that is no route is its own target.
    const direct = await gateway.createKey()
    expect((await chat("alt/m1", {}, direct.secret)).status).toBe(200)
    const [plain] = await gateway.ledgerRows({ keyId: direct.id })
    expect(plain).toMatchObject({ model: "alt/m1", target: "alt/m1" })
  })
})
