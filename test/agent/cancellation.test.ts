import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { assert, describe, expect, it } from "@effect/vitest"
import type { UIMessageChunk } from "ai"
import { MockLanguageModelV4 } from "ai/test"
import { Deferred, Effect, Fiber } from "effect"
import { Agent } from "../../src/agent/Agent.ts"
import { makeTestTool } from "../support/tools.ts"
import {
  agentLayer,
  finish,
  makeRun,
  runCollecting,
  scriptedModel,
  stallingModel,
  start,
  streamingTo,
  toolCall
} from "./fixtures.ts"

const waitUntil = (condition: () => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 500 && !condition(); i++) yield* Effect.sleep("2 millis")
    assert.isTrue(condition())
  })

describe("cancellation", () => {
  it.live("interrupting the run after its first chunks aborts the model request and ends its open parts", () =>
    Effect.gen(function*() {
      const { cancelled, model } = stallingModel([
        start,
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Once upon" }
      ])
      const agent = yield* Agent
      const chunks: Array<UIMessageChunk> = []
      const fiber = yield* agent.run(makeRun(model, []), streamingTo(chunks)).pipe(
        Effect.forkChild
      )
      yield* waitUntil(() => chunks.length === 4)
      yield* Fiber.interrupt(fiber)

      // The open parts end (docs/DESIGN.md §8: a stream the server stops gets its error and finish chunks after them).
      expect(chunks.map((chunk) => chunk.type)).toEqual([
        "start",
        "start-step",
        "text-start",
        "text-delta",
        "text-end",
        "finish-step"
      ])
      yield* waitUntil(() => cancelled.length === 1)
      assert.isTrue(model.doStreamCalls[0]?.abortSignal?.aborted)
    }).pipe(Effect.provide(agentLayer)))

  it.live("interrupting the run while the model has not answered aborts the request", () =>
    Effect.gen(function*() {
      const { model } = stallingModel([start])
      const fiber = yield* runCollecting(makeRun(model, [])).pipe(Effect.forkChild)
      yield* waitUntil(() => model.doStreamCalls.length === 1)
      yield* Fiber.interrupt(fiber)

      assert.isTrue(model.doStreamCalls[0]?.abortSignal?.aborted)
    }))

  it.live("a stream that arrives after the run was interrupted is cancelled", () =>
    Effect.gen(function*() {
      const cancelled: Array<unknown> = []
      // Answers only once the request was aborted, as a provider racing the abort would.
      const model = new MockLanguageModelV4({
        provider: "mock.chat",
        doStream: ({ abortSignal }) =>
          new Promise((resolve) =>
            abortSignal?.addEventListener("abort", () =>
              resolve({
                stream: new ReadableStream<LanguageModelV4StreamPart>({
                  start(controller) {
                    controller.enqueue(start)
                  },
                  cancel(reason) {
                    cancelled.push(reason)
                  }
                })
              }))
          )
      })
      const fiber = yield* runCollecting(makeRun(model, [])).pipe(Effect.forkChild)
      yield* waitUntil(() => model.doStreamCalls.length === 1)
      yield* Fiber.interrupt(fiber)

      yield* waitUntil(() => cancelled.length === 1)
    }))

  it.live("interrupting the run interrupts running tools and aborts their signal", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<AbortSignal>()
      const interrupted: Array<string> = []
      const hanging = makeTestTool({
        name: "hang",
        execute: (_input, execution) =>
          Deferred.succeed(started, execution.signal).pipe(
            Effect.andThen(Effect.never),
            Effect.onInterrupt(() => Effect.sync(() => interrupted.push(execution.toolCallId)))
          )
      })
      const model = scriptedModel([[
        start,
        ...toolCall("call-1", "hang", `{"text":"a"}`),
        ...toolCall("call-2", "hang", `{"text":"b"}`),
        finish("tool-calls")
      ]])
      const fiber = yield* runCollecting(makeRun(model, [hanging])).pipe(Effect.forkChild)
      const signal = yield* Deferred.await(started)
      yield* waitUntil(() => model.doStreamCalls.length === 1)
      yield* Fiber.interrupt(fiber)

      assert.isTrue(signal.aborted)
      expect(interrupted.sort()).toEqual(["call-1", "call-2"])
      assert.strictEqual(model.doStreamCalls.length, 1)
    }))
})
