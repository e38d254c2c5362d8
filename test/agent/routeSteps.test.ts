import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { assert, describe, it } from "@effect/vitest"
import type { UIMessageChunk } from "ai"
import { Effect } from "effect"
import { Agent } from "../../src/agent/Agent.ts"
import { RunMeter } from "../../src/agent/RunMeter.ts"
import {
  agentLayer,
  asChunk,
  finish,
  makeRun,
  runCollected,
  scriptedModel,
  start,
  streamingTo,
  text,
  usage
} from "./fixtures.ts"

// An overloaded provider's error event after it had streamed, and even reported, part of its answer.
const overloaded: LanguageModelV4StreamPart = {
  type: "error",
  error: { message: "Overloaded", isRetryable: true, statusCode: 529 }
}

/** A route over two scripted targets: `a/m` breaks off mid-step after its usage, `b/m` answers (docs/DESIGN.md §15). */
const routedRun = () => {
  const broken = scriptedModel([[start, ...text("0", "broken ", "half"), finish("stop", usage(10, 5)), overloaded]])
  const whole = scriptedModel([[start, ...text("0", "second"), finish("stop", usage(3, 2))]])
  const meter = new RunMeter("smart/r")
  const run = makeRun(broken, [], {
    meter,
    route: {
      targets: [{ id: "a/m", provider: "a", model: broken }, { id: "b/m", provider: "b", model: whole }]
    }
  })
  return { run, meter, broken, whole }
}

const texts = (chunks: ReadonlyArray<UIMessageChunk>) =>
  chunks.flatMap((chunk) => chunk.type === "text-delta" ? [chunk.delta] : []).join("")

describe("a route's step that breaks off mid-answer (docs/DESIGN.md §15)", () => {
  it.effect("is retried on the next target after reset-step where the sink takes it; usage counts both attempts", () =>
    Effect.gen(function*() {
      const { meter, run, whole } = routedRun()
      const chunks: Array<UIMessageChunk> = []
      const agent = yield* Agent
      const summary = yield* agent.run(run, { ...streamingTo(chunks), resetsStep: true })
      const types = chunks.map((chunk) => chunk.type)
      assert.deepStrictEqual(types.slice(types.indexOf("reset-step")), [
        "reset-step",
        "text-start",
        "text-delta",
        "text-end",
        "finish-step",
        "finish"
      ])
      assert.strictEqual(types.filter((type) => type === "start-step").length, 1)
      assert.strictEqual(texts(chunks.slice(types.indexOf("reset-step"))), "second")
      assert.strictEqual(whole.doStreamCalls.length, 1)
      // The broken attempt's tokens were spent: they count, priced as its own target's.
      assert.deepStrictEqual(summary.usage, { inputTokens: 13, outputTokens: 7, totalTokens: 20 })
      assert.deepStrictEqual(meter.usageByModel(), [
        ["a/m", { inputTokens: 10, outputTokens: 5, totalTokens: 15 }],
        ["b/m", { inputTokens: 3, outputTokens: 2, totalTokens: 5 }]
      ])
      assert.strictEqual(meter.target, "b/m")
      assert.strictEqual(meter.attempts, 2)
    }).pipe(Effect.provide(agentLayer)))

  it.effect("ends the stream as today where the sink cannot take it back: the next target is never asked", () =>
    Effect.gen(function*() {
      const { meter, run, whole } = routedRun()
      const chunks: Array<UIMessageChunk> = []
      const agent = yield* Agent
      const summary = yield* agent.run(run, streamingTo(chunks))
      assert.strictEqual(summary.finishReason, "error")
      assert.notInclude(chunks.map((chunk) => chunk.type), "reset-step")
      assert.strictEqual(whole.doStreamCalls.length, 0)
      assert.strictEqual(meter.target, "a/m")
    }).pipe(Effect.provide(agentLayer)))

  it.effect("an answer sent in one piece drops the broken attempt's chunks itself: the answer is the retry's alone", () =>
    Effect.gen(function*() {
      const { run } = routedRun()
      const collected = yield* runCollected(run)
      const types = collected.events.map((event) => event.type)
      assert.deepStrictEqual(types, [
        "start",
        "start-step",
        "text-start",
        "text-delta",
        "text-end",
        "finish-step",
        "finish"
      ])
      assert.strictEqual(texts(collected.events.map(asChunk)), "second")
      assert.strictEqual(collected.summary.usage.inputTokens, 13)
    }))
})
