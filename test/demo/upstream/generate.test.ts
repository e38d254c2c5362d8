import { createOpenAI } from "@ai-sdk/openai"
import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { APICallError, generateText, jsonSchema, streamText, tool } from "ai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../../src/demo/upstream/server.ts"
import type { Upstream } from "../../../src/demo/upstream/types.ts"

const API_KEY = "sk-upstream-test"
let upstream: Upstream
let model: ReturnType<ReturnType<typeof createOpenAICompatible>["chatModel"]>

beforeAll(async () => {
  upstream = await startUpstream({ apiKey: API_KEY, models: ["m1", "m2"] })
  model = createOpenAICompatible({ name: "scripted", baseURL: upstream.url, apiKey: API_KEY }).chatModel("m1")
})
afterAll(() => upstream.close())

const failureOf = (promise: Promise<unknown>): Promise<APICallError> =>
  promise.then(
    () => expect.unreachable("the call should have failed"),
    (error: unknown) => {
      expect(APICallError.isInstance(error)).toBe(true)
      return error as APICallError
    }
  )

describe("scripted upstream, non-streamed through the AI SDK", () => {
  it("answers text with usage and finish reason", async () => {
    upstream.enqueue({
      type: "text",
      text: "plain answer",
      finishReason: "length",
      usage: { promptTokens: 4, completionTokens: 2 }
    })
    const result = await generateText({ model, prompt: "hi" })

    expect(result.text).toBe("plain answer")
    expect(result.finishReason).toBe("length")
    expect(result.usage.inputTokens).toBe(4)
    expect(result.usage.outputTokens).toBe(2)
    expect(result.usage.totalTokens).toBe(6)
    expect(upstream.requests.at(-1)!.body.stream).not.toBe(true)
    expect(upstream.requests.at(-1)!.headers.authorization).toBe(`Bearer ${API_KEY}`)
  })

  it("estimates usage when the reply does not script it", async () => {
    upstream.enqueue({ type: "text", text: "x".repeat(40) })
    const result = await generateText({ model, prompt: "hi" })
    expect(result.usage.outputTokens).toBe(10)
    expect(result.usage.inputTokens).toBeGreaterThan(0)
  })

  it("answers tool calls with arguments as sent", async () => {
    upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "c1", name: "find", arguments: { q: "a" } }, { id: "c2", name: "find", arguments: "{\"q\":\"b\"}" }]
    })
    const find = tool({
      inputSchema: jsonSchema<{ q: string }>({
        type: "object",
        properties: { q: { type: "string" } },
        required: ["q"]
      }),
      execute: async () => "found"
    })
    const result = await generateText({ model, prompt: "go", tools: { find } })

    expect(result.finishReason).toBe("tool-calls")
    expect(result.toolCalls.map((c) => [c.toolCallId, c.input])).toEqual([["c1", { q: "a" }], ["c2", { q: "b" }]])
  })

  it("turns an error reply into an APICallError with its status, message and Retry-After", async () => {
    upstream.enqueue({ type: "error", status: 429, retryAfter: 7 })
    const error = await failureOf(generateText({ model, prompt: "hi", maxRetries: 0 }))

    expect(error.statusCode).toBe(429)
    expect(error.isRetryable).toBe(true)
    expect(error.message).toBe("Rate limit reached")
    expect(error.responseHeaders?.["retry-after"]).toBe("7")
    expect(JSON.parse(error.responseBody!)).toEqual({
      error: { message: "Rate limit reached", type: "rate_limit_error", code: "rate_limit_exceeded" }
    })
  })

  it("sends a scripted error body as is, also to a streaming client", async () => {
    upstream.enqueue({
      type: "error",
      status: 503,
      body: { error: { message: "overloaded", type: "server_error", code: null } }
    })
    const result = streamText({ model, prompt: "hi", maxRetries: 0, onError: () => {} })
    const errors: Array<unknown> = []
    for await (const part of result.fullStream) if (part.type === "error") errors.push(part.error)

    expect(errors).toHaveLength(1)
    const error = errors[0] as APICallError
    expect(APICallError.isInstance(error)).toBe(true)
    expect(error.statusCode).toBe(503)
    expect(error.message).toBe("overloaded")
  })

  it("rejects a wrong API key with 401 in OpenAI's error shape", async () => {
    const wrong = createOpenAICompatible({ name: "scripted", baseURL: upstream.url, apiKey: "nope" }).chatModel("m1")
    const error = await failureOf(generateText({ model: wrong, prompt: "hi", maxRetries: 0 }))

    expect(error.statusCode).toBe(401)
    expect(JSON.parse(error.responseBody!).error.code).toBe("invalid_api_key")
  })

  it("uses respondWith while the queue is empty, and the queue first", async () => {
    upstream.respondWith((body) => ({ type: "text", text: `model ${body.model}` }))
    upstream.enqueue({ type: "text", text: "queued" })

    expect((await generateText({ model, prompt: "a" })).text).toBe("queued")
    expect((await generateText({ model, prompt: "b" })).text).toBe("model m1")
  })

  it("delays the answer by delayMs", async () => {
    upstream.enqueue({ type: "text", text: "late", delayMs: 150 })
    const started = Date.now()
    expect((await generateText({ model, prompt: "hi" })).text).toBe("late")
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
  })

  it("speaks a dialect the OpenAI chat provider parses too", async () => {
    const openai = createOpenAI({ baseURL: upstream.url, apiKey: API_KEY }).chat("gpt-4o-mini")
    upstream.enqueue(
      { type: "tool-calls", calls: [{ id: "t1", name: "find", arguments: { q: "x" } }], text: "Searching" },
      { type: "text", text: "streamed text", usage: { promptTokens: 3, completionTokens: 2, cachedTokens: 1 } }
    )
    const find = tool({
      inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } } }),
      execute: async () => "found"
    })
    const generated = await generateText({ model: openai, prompt: "go", tools: { find } })
    expect(generated.toolCalls.map((c) => c.input)).toEqual([{ q: "x" }])
    expect(generated.text).toBe("Searching")

    const streamed = streamText({ model: openai, prompt: "go" })
    expect(await streamed.text).toBe("streamed text")
    expect((await streamed.usage).inputTokenDetails.cacheReadTokens).toBe(1)
  })
})

describe("scripted upstream, plain HTTP", () => {
  const headers = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }

  it("lists its models", async () => {
    const response = await fetch(`${upstream.url}/models`, { headers })
    const body = await response.json()
    expect(body.object).toBe("list")
    expect(body.data.map((m: { id: string }) => m.id)).toEqual(["m1", "m2"])
  })

  it("answers malformed JSON with 400 and unknown routes with 404, both in OpenAI's error shape", async () => {
    const malformed = await fetch(`${upstream.url}/chat/completions`, { method: "POST", headers, body: "{" })
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).error.type).toBe("invalid_request_error")

    const unknown = await fetch(`${upstream.url}/embeddings`, { method: "POST", headers, body: "{}" })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.message).toMatch(/embeddings/)
  })

  it("requires the API key on every route", async () => {
    const response = await fetch(`${upstream.url}/models`)
    expect(response.status).toBe(401)
  })
})
