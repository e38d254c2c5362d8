import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { assert, describe, expect, it } from "@effect/vitest"
import { MockLanguageModelV4 } from "ai/test"
import { Effect } from "effect"
import { openPartStream, type PartStream, type PartStreaming } from "../../src/models/PartStreaming.ts"
import { finish, makeRun, runCollecting, start, text } from "./fixtures.ts"

/** A model with the PartStreaming capability: each call hands over `parts` in one go, and records cancels. */
const partStreamingModel = (answers: ReadonlyArray<ReadonlyArray<LanguageModelV4StreamPart>>) => {
  const cancels: Array<unknown> = []
  const delivered: Array<number> = []
  let calls = 0
  const model = new MockLanguageModelV4({
    doStream: () => Promise.reject(new Error("the capability should be used, not doStream"))
  }) as MockLanguageModelV4 & PartStreaming
  Object.assign(model, {
    [openPartStream]: async (_options: LanguageModelV4CallOptions): Promise<PartStream> => {
      const parts = answers[Math.min(calls++, answers.length - 1)]!
      let cancelled: { reason: unknown } | undefined
      return {
        request: { body: {} },
        response: { headers: {} },
        read: async (onPart) => {
          let count = 0
          for (const part of parts) {
            if (cancelled !== undefined) break
            onPart(part)
            count++
          }
          delivered.push(count)
          if (cancelled !== undefined) throw cancelled.reason
        },
        pause: () => undefined,
        resume: () => undefined,
        cancel: (reason) => {
          cancels.push(reason)
          cancelled = { reason }
        }
      }
    }
  })
  return { model, cancels, delivered, calls: () => calls }
}

const hello = [start, ...text("0", "Hello"), finish("stop")]

describe("a model with the PartStreaming capability", () => {
  it.live("is read through it", () =>
    Effect.gen(function*() {
      const fake = partStreamingModel([hello])
      const { chunks, exit } = yield* runCollecting(makeRun(fake.model, []))
      assert.strictEqual(exit._tag, "Success")
      assert.strictEqual(fake.model.doStreamCalls.length, 0)
      expect(chunks.map((chunk) => chunk.type)).toContain("text-delta")
    }))

  it.live("an error part mid-answer is the step's failure: the reading stops, nothing after it is sent, no retry", () =>
    Effect.gen(function*() {
      const fake = partStreamingModel([[
        start,
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Hal" },
        { type: "error", error: { message: "overloaded" } },
        { type: "text-delta", id: "t", delta: "lo" },
        finish("stop")
      ], hello])
      const { chunks, exit } = yield* runCollecting(makeRun(fake.model, []))

      assert.strictEqual(fake.calls(), 1)
      assert.strictEqual(fake.cancels.length, 1)
      assert.deepStrictEqual(fake.delivered, [4])
      // The stream ends after what was sent (docs/DESIGN.md §3.3): the failure is its error chunk.
      expect(chunks.map((chunk) => chunk.type).slice(3)).toEqual([
        "text-delta",
        "text-end",
        "finish-step",
        "error",
        "finish"
      ])
      expect(chunks.at(-2)).toEqual({ type: "error", errorText: "failed: mock failed: overloaded" })
      assert.strictEqual(exit._tag, "Success")
    }))

  it.live("a transient error part before the answer is retried (after the 1 s backoff)", () =>
    Effect.gen(function*() {
      const fake = partStreamingModel([[start, { type: "error", error: new TypeError("fetch failed") }], hello])
      const { chunks, exit } = yield* runCollecting(makeRun(fake.model, []))
      assert.strictEqual(exit._tag, "Success")
      assert.strictEqual(fake.calls(), 2)
      assert.strictEqual(chunks[0]?.type, "start")
    }), 5_000)
})
