import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { APICallError, jsonSchema, streamText, tool } from "ai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../../src/demo/upstream/server.ts"
import type { Upstream } from "../../../src/demo/upstream/types.ts"

let upstream: Upstream
let model: ReturnType<ReturnType<typeof createOpenAICompatible>["chatModel"]>

beforeAll(async () => {
  upstream = await startUpstream()
  model = createOpenAICompatible({ name: "scripted", baseURL: upstream.url, includeUsage: true }).chatModel("m1")
})
afterAll(() => upstream.close())

const partsOf = async (result: { readonly fullStream: AsyncIterable<unknown> }) => {
  const parts: Array<any> = []
  for await (const part of result.fullStream) parts.push(part)
  return parts
}

const lookup = tool({
  inputSchema: jsonSchema<{ city: string; days?: number }>({
    type: "object",
    properties: { city: { type: "string" }, days: { type: "integer" } },
    required: ["city"]
  }),
  execute: async () => "sunny"
})

describe("scripted upstream, streamed through the AI SDK", () => {
  it("streams text word by word and reports the scripted usage", async () => {
    upstream.enqueue({
      type: "text",
      text: "Hello there, streaming world",
      usage: { promptTokens: 11, completionTokens: 7, cachedTokens: 3, reasoningTokens: 2 }
    })
    const result = streamText({ model, prompt: "hi" })
    const parts = await partsOf(result)

    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.text)).toEqual([
      "Hello ",
      "there, ",
      "streaming ",
      "world"
    ])
    expect(await result.text).toBe("Hello there, streaming world")
    expect(await result.finishReason).toBe("stop")
    const usage = await result.usage
    expect(usage.inputTokens).toBe(11)
    expect(usage.outputTokens).toBe(7)
    expect(usage.totalTokens).toBe(18)
    expect(usage.inputTokenDetails.cacheReadTokens).toBe(3)
    expect(usage.outputTokenDetails.reasoningTokens).toBe(2)
    const request = upstream.requests.at(-1)!
    expect(request.body.stream).toBe(true)
    expect(request.body.stream_options).toEqual({ include_usage: true })
    expect(request.body.model).toBe("m1")
  })

  it("splits text into the requested number of chunks and ends with the scripted finish reason", async () => {
    upstream.enqueue({ type: "text", text: "abcdefgh", chunks: 4, finishReason: "length" })
    const result = streamText({ model, prompt: "hi" })
    const parts = await partsOf(result)

    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.text)).toEqual(["ab", "cd", "ef", "gh"])
    expect(await result.finishReason).toBe("length")
  })

  it("streams several tool calls with their arguments in pieces", async () => {
    upstream.enqueue({
      type: "tool-calls",
      text: "Looking up.",
      calls: [
        { id: "call_a", name: "lookup", arguments: { city: "Berlin", days: 3 } },
        { name: "lookup", arguments: { city: "Lisbon" } }
      ],
      usage: { promptTokens: 5, completionTokens: 9 }
    })
    const result = streamText({ model, prompt: "weather?", tools: { lookup } })
    const parts = await partsOf(result)

    const calls = await result.toolCalls
    expect(calls.map((c) => [c.toolName, c.input])).toEqual([
      ["lookup", { city: "Berlin", days: 3 }],
      ["lookup", { city: "Lisbon" }]
    ])
    expect(calls[0]!.toolCallId).toBe("call_a")
    expect(calls[1]!.toolCallId).toMatch(/^call_\d+$/)
    expect(await result.text).toBe("Looking up.")
    expect(await result.finishReason).toBe("tool-calls")
    expect((await result.usage).outputTokens).toBe(9)
    const deltas = parts.filter((p) => p.type === "tool-input-delta" && p.id === "call_a")
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.map((p) => p.delta).join("")).toBe(JSON.stringify({ city: "Berlin", days: 3 }))
    expect(upstream.requests.at(-1)!.body.tools[0].function.name).toBe("lookup")
  })

  it("turns a stream that breaks off into an error after the first chunks", async () => {
    upstream.enqueue({ type: "broken", afterChunks: 2 })
    const result = streamText({ model, prompt: "hi", maxRetries: 0 })
    const parts: Array<any> = []
    const failure = await (async () => {
      for await (const part of result.fullStream) parts.push(part)
    })().then(() => undefined, (error: unknown) => error)

    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.text).join("")).toBe("part 1 part 2 ")
    expect(APICallError.isInstance(failure)).toBe(true)
    expect(String((failure as APICallError).cause)).toMatch(/terminated/)
    expect(upstream.requests.at(-1)!.aborted).toBe(false)
  })

  it("paces chunks by chunkDelayMs", async () => {
    upstream.enqueue({ type: "text", text: "one two three", chunkDelayMs: 60 })
    const started = Date.now()
    const result = streamText({ model, prompt: "hi" })
    expect(await result.text).toBe("one two three")
    // 1 role chunk + 3 words + finish + usage + [DONE]: six gaps
    expect(Date.now() - started).toBeGreaterThanOrEqual(300)
  })

  it("records a request the client aborts while the upstream hangs", async () => {
    upstream.enqueue({ type: "hang" })
    const before = upstream.requests.length
    const controller = new AbortController()
    const result = streamText({ model, prompt: "hi", abortSignal: controller.signal, maxRetries: 0 })
    const consumed = partsOf(result).catch(() => [])
    await waitFor(() => upstream.requests.length > before)
    controller.abort()
    const aborted = await upstream.waitForAbort(2_000)
    expect(aborted.aborted).toBe(true)
    expect(aborted).toBe(upstream.requests.at(-1))
    await consumed
  })

  it("rejects waitForAbort when nothing is aborted in time", async () => {
    await expect(upstream.waitForAbort(50)).rejects.toThrow(/no request was aborted/)
  })
})

describe("scripted upstream without request recording", () => {
  it("keeps no requests but still reports aborts", async () => {
    const quiet = await startUpstream({ recordRequests: false })
    try {
      const quietModel = createOpenAICompatible({ name: "quiet", baseURL: quiet.url }).chatModel("m")
      expect(await streamText({ model: quietModel, prompt: "hello" }).text).toBe("hello")
      quiet.enqueue({ type: "hang" })
      const controller = new AbortController()
      const result = streamText({ model: quietModel, prompt: "hi", abortSignal: controller.signal, maxRetries: 0 })
      const consumed = partsOf(result).catch(() => [])
      setTimeout(() => controller.abort(), 50)
      const aborted = await quiet.waitForAbort(2_000)
      expect(aborted.body.messages).toEqual([{ role: "user", content: "hi" }])
      expect(quiet.requests).toHaveLength(0)
      await consumed
    } finally {
      await quiet.close()
    }
  })
})

const waitFor = async (condition: () => boolean, timeoutMs = 2_000) => {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
