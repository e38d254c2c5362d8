import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { collectMessage } from "../../src/protocols/ui/collect.ts"
import { makeTestTool } from "../support/tools.ts"
import { finishMetadata, makeRun, runCollecting, upstreamFailure } from "./fixtures.ts"

// The agent against a real HTTP provider: the OpenAI-compatible client talking to a scripted server.
const PROVIDER_KEY = "sk-upstream-secret-0123456789abcdef"
let upstream: Upstream

beforeAll(async () => {
  upstream = await startUpstream({ apiKey: PROVIDER_KEY })
})
afterAll(() => upstream.close())

const model = (apiKey = PROVIDER_KEY) =>
  createOpenAICompatible({ name: "local", baseURL: upstream.url, apiKey, includeUsage: true }).chatModel("m1")

const echo = makeTestTool({ name: "echo" })

describe("Agent with an HTTP provider", () => {
  it.live("runs a tool call and the answer end to end", () =>
    Effect.gen(function*() {
      upstream.enqueue(
        {
          type: "tool-calls",
          calls: [{ id: "call_a", name: "echo", arguments: { text: "hi" } }],
          usage: { promptTokens: 50, completionTokens: 5 }
        },
        { type: "text", text: "It echoed hi.", usage: { promptTokens: 80, completionTokens: 4, cachedTokens: 40 } }
      )
      const { chunks, exit } = yield* runCollecting(makeRun(model(), [echo], { provider: "local" }))

      assert.isTrue(Exit.isSuccess(exit))
      const message = collectMessage(chunks)
      const summary = Exit.isSuccess(exit) ? exit.value : undefined
      expect(message.parts.filter((part) => part.type === "dynamic-tool")).toEqual([
        expect.objectContaining({ toolCallId: "call_a", state: "output-available", input: { text: "hi" } })
      ])
      expect(message.parts.at(-1)).toEqual({ type: "text", text: "It echoed hi.", state: "done" })
      expect(summary).toEqual({
        finished: true,
        finishReason: "stop",
        usage: { inputTokens: 130, outputTokens: 9, totalTokens: 139, reasoningTokens: 0, cachedInputTokens: 40 }
      })
      // The second request carried the tool result back to the model.
      const second = upstream.requests.at(-1)?.body
      expect(second.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_a" })
    }))

  it.live("retries a 429 with Retry-After, then answers", () =>
    Effect.gen(function*() {
      const before = upstream.requests.length
      upstream.enqueue({ type: "error", status: 429, retryAfter: 0.01 }, { type: "text", text: "Finally." })
      const { chunks, exit } = yield* runCollecting(makeRun(model(), [], { provider: "local" }))

      assert.isTrue(Exit.isSuccess(exit))
      assert.strictEqual(upstream.requests.length - before, 2)
      expect(finishMetadata(chunks)).toMatchObject({ finished: true })
    }))

  it.live("a rejected key is a ProviderRejected that does not carry the key", () =>
    Effect.gen(function*() {
      const { chunks, exit } = yield* runCollecting(
        makeRun(model("sk-wrong-key-0123456789abcdef"), [], { provider: "local" })
      )

      assert.deepStrictEqual(chunks, [])
      const error = upstreamFailure(exit)
      expect(error).toMatchObject({ _tag: "ProviderRejected", provider: "local", status: 401 })
      assert.notInclude(JSON.stringify(error), "sk-wrong-key")
      assert.notInclude(JSON.stringify(error), PROVIDER_KEY)
    }))

  it.live("a connection cut mid-answer ends the stream after its first chunks with an error (docs/DESIGN.md §3.3)", () =>
    Effect.gen(function*() {
      upstream.enqueue({ type: "broken", afterChunks: 2 })
      const { chunks, exit } = yield* runCollecting(makeRun(model(), [], { provider: "local" }))

      assert.isTrue(Exit.isSuccess(exit))
      assert.strictEqual(chunks[0]?.type, "start")
      assert.isTrue(chunks.some((chunk) => chunk.type === "text-delta"))
      expect(chunks.slice(-4).map((chunk) => chunk.type)).toEqual(["text-end", "finish-step", "error", "finish"])
      expect(finishMetadata(chunks)).toEqual({ finished: false, finishReason: "error", usage: {} })
    }))

  it.live("interrupting the run aborts the HTTP request", () =>
    Effect.gen(function*() {
      upstream.enqueue({ type: "hang" })
      const before = upstream.requests.length
      const fiber = yield* runCollecting(makeRun(model(), [], { provider: "local" })).pipe(Effect.forkChild)
      for (let i = 0; i < 500 && upstream.requests.length === before; i++) yield* Effect.sleep("2 millis")
      yield* Fiber.interrupt(fiber)

      const aborted = yield* Effect.promise(() => upstream.waitForAbort(2_000))
      assert.isTrue(aborted.aborted)
    }))
})
