import { assert, describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { collectMessage } from "../../src/protocols/ui/collect.ts"
import { makeTestTool } from "../support/tools.ts"
import {
  asChunk,
  finish,
  finishMetadata,
  makeRun,
  runChunks,
  runCollected,
  runCollecting,
  scriptedModel,
  stallingModel,
  start,
  text,
  toolCall,
  upstreamFailure,
  usage
} from "./fixtures.ts"

const echo = makeTestTool({ name: "echo" })

describe("step limit", () => {
  it.live("stops after maxSteps model calls with finished: false, step-limit", () =>
    Effect.gen(function*() {
      const model = scriptedModel([[
        start,
        ...toolCall("call", "echo", `{"text":"again"}`),
        finish("tool-calls", usage(10, 2))
      ]])
      const { events, summary } = yield* runCollected(makeRun(model, [echo], { maxSteps: 3 }))
      const chunks = events.map(asChunk)

      assert.strictEqual(model.doStreamCalls.length, 3)
      expect(finishMetadata(chunks)).toEqual({
        finished: false,
        finishReason: "step-limit",
        usage: { inputTokens: 30, outputTokens: 6, totalTokens: 36 }
      })
      // Every call of the last step still ran: the history has a result for each.
      assert.strictEqual(chunks.filter((chunk) => chunk.type === "tool-output-available").length, 3)
      // The summary is the finish chunk's metadata, handed over directly.
      expect(summary).toEqual({
        finished: false,
        finishReason: "step-limit",
        usage: { inputTokens: 30, outputTokens: 6, totalTokens: 36 }
      })
    }))

  it.live("a run that ends on its last allowed step is finished", () =>
    Effect.gen(function*() {
      const model = scriptedModel([
        [start, ...toolCall("call", "echo", `{"text":"x"}`), finish("tool-calls")],
        [start, ...text("0", "done"), finish("stop")]
      ])
      const chunks = yield* runChunks(makeRun(model, [echo], { maxSteps: 2 }))
      expect(finishMetadata(chunks)).toMatchObject({ finished: true })
    }))
})

describe("time limit", () => {
  it.effect("interrupts a running tool at the timeout and ends the stream validly", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<AbortSignal>()
      const hanging = makeTestTool({
        name: "hang",
        execute: (_input, execution) => Deferred.succeed(started, execution.signal).pipe(Effect.andThen(Effect.never))
      })
      const model = scriptedModel([[
        start,
        ...text("0", "Working"),
        ...toolCall("call-1", "hang", `{"text":"x"}`),
        finish("tool-calls")
      ]])
      const fiber = yield* runCollecting(makeRun(model, [hanging], { timeout: "300 seconds" })).pipe(Effect.forkChild)

      const signal = yield* Deferred.await(started)
      assert.isFalse(signal.aborted)
      yield* TestClock.adjust("300 seconds")
      const { chunks, exit } = yield* Fiber.join(fiber)

      assert.isTrue(Exit.isSuccess(exit))
      assert.isTrue(signal.aborted)
      expect(chunks.slice(-3)).toEqual([
        {
          type: "tool-output-error",
          toolCallId: "call-1",
          errorText: "Error: the request time limit was reached before this tool call completed",
          dynamic: true
        },
        { type: "finish-step" },
        {
          type: "finish",
          finishReason: "other",
          messageMetadata: {
            finished: false,
            finishReason: "timeout",
            usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }
          }
        }
      ])
      assert.strictEqual(model.doStreamCalls.length, 1)
    }))

  it.live("closes open text and streaming tool input when the model stalls past the timeout", () =>
    Effect.gen(function*() {
      const { cancelled, model } = stallingModel([
        start,
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Partial" },
        { type: "tool-input-start", id: "call-1", toolName: "echo" },
        { type: "tool-input-delta", id: "call-1", delta: `{"te` }
      ])
      const { chunks, exit } = yield* runCollecting(makeRun(model, [echo], { timeout: "150 millis" }))

      assert.isTrue(Exit.isSuccess(exit))
      expect(chunks.slice(-4)).toEqual([
        { type: "text-end", id: "t" },
        {
          type: "tool-input-error",
          toolCallId: "call-1",
          toolName: "echo",
          input: `{"te`,
          dynamic: true,
          errorText: "Error: the request time limit was reached before this tool call completed"
        },
        { type: "finish-step" },
        {
          type: "finish",
          finishReason: "other",
          messageMetadata: { finished: false, finishReason: "timeout", usage: {} }
        }
      ])
      assert.isTrue(model.doStreamCalls[0]?.abortSignal?.aborted)
      assert.strictEqual(cancelled.length, 1)
      const message = collectMessage(chunks)
      expect(message.parts.map((part) => "state" in part ? part.state : part.type)).toEqual([
        "step-start",
        "done",
        "output-error"
      ])
    }))

  it.live("fails with ProviderUnavailable and no chunk when the model never answers in time", () =>
    Effect.gen(function*() {
      const { model } = stallingModel([start])
      const { chunks, exit } = yield* runCollecting(makeRun(model, [], { timeout: "100 millis" }))

      assert.deepStrictEqual(chunks, [])
      expect(upstreamFailure(exit)).toMatchObject({
        _tag: "ProviderUnavailable",
        provider: "mock",
        status: 504,
        message: "mock did not answer within the request time limit"
      })
      assert.isTrue(model.doStreamCalls[0]?.abortSignal?.aborted)
    }))
})
