import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeTestTool } from "../support/tools.ts"
import {
  finish,
  finishMetadata,
  makeRun,
  NO_USAGE,
  runChunks,
  scriptedModel,
  start,
  text,
  toolCall,
  usage
} from "./fixtures.ts"

const echo = makeTestTool({ name: "echo" })

describe("usage", () => {
  it.live("is summed over the steps, with the spec's names", () =>
    Effect.gen(function*() {
      const model = scriptedModel([
        [
          start,
          ...toolCall("a", "echo", `{"text":"1"}`),
          finish("tool-calls", usage(100, 20, { reasoning: 8, cacheRead: 64 }))
        ],
        [start, ...toolCall("b", "echo", `{"text":"2"}`), finish("tool-calls", usage(150, 10, { cacheRead: 128 }))],
        [start, ...text("0", "done"), finish("stop", usage(170, 5))]
      ])
      const chunks = yield* runChunks(makeRun(model, [echo]))
      expect(finishMetadata(chunks)).toEqual({
        finished: true,
        finishReason: "stop",
        usage: { inputTokens: 420, outputTokens: 35, totalTokens: 455, reasoningTokens: 8, cachedInputTokens: 192 }
      })
    }))

  it.live("leaves out what the provider never reported", () =>
    Effect.gen(function*() {
      const model = scriptedModel([
        [start, ...toolCall("a", "echo", `{"text":"1"}`), finish("tool-calls", NO_USAGE)],
        [
          start,
          ...text("0", "done"),
          finish("stop", {
            inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 7, text: undefined, reasoning: undefined }
          })
        ]
      ])
      const chunks = yield* runChunks(makeRun(model, [echo]))
      expect(finishMetadata(chunks)).toEqual({
        finished: true,
        finishReason: "stop",
        usage: { outputTokens: 7, totalTokens: 7 }
      })
    }))
})
