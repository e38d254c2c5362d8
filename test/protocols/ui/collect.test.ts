import { assert, describe, expect, it } from "@effect/vitest"
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai"
import { convertArrayToReadableStream } from "ai/test"
import { Effect, Schema } from "effect"
import { collectMessage } from "../../../src/protocols/ui/collect.ts"
import { makeRun, runChunks, runCollecting, scriptedModel, stallingModel, start } from "../../agent/fixtures.ts"
import { scenarios, tools } from "../../agent/scenarios.ts"
import { makeTestTool } from "../../support/tools.ts"

/** The message the AI SDK's own reader builds from the same chunks. */
const readWithAiSdk = (chunks: ReadonlyArray<UIMessageChunk>) =>
  Effect.promise(async () => {
    let last: UIMessage | undefined
    for await (const message of readUIMessageStream({ stream: convertArrayToReadableStream([...chunks]) })) {
      last = message
    }
    return last
  })

const expectSameMessage = (chunks: ReadonlyArray<UIMessageChunk>) =>
  Effect.gen(function*() {
    const expected = yield* readWithAiSdk(chunks)
    expect(collectMessage(chunks)).toEqual(expected)
  })

describe("collectMessage builds the message readUIMessageStream builds", () => {
  for (const scenario of scenarios) {
    it.live(scenario.name, () =>
      Effect.gen(function*() {
        const model = scriptedModel(scenario.script)
        const chunks = yield* runChunks(makeRun(model, tools, { maxSteps: scenario.maxSteps ?? 30 }))
        yield* expectSameMessage(chunks)
      }))
  }

  it.live("a run cut by the time limit", () =>
    Effect.gen(function*() {
      const { model } = stallingModel([
        start,
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: "Hmm" },
        { type: "tool-input-start", id: "call-1", toolName: "echo" },
        { type: "tool-input-delta", id: "call-1", delta: `{"text":"hal` }
      ])
      const { chunks } = yield* runCollecting(
        makeRun(model, [makeTestTool({ name: "echo" })], { timeout: "50 millis" })
      )
      yield* expectSameMessage(chunks)
    }))

  it.effect("tool parts of a tool that is not dynamic, streamed then rejected", () =>
    expectSameMessage([
      { type: "start", messageId: "m1" },
      { type: "start-step" },
      { type: "tool-input-start", toolCallId: "c1", toolName: "teleport", title: "Teleport" },
      { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: `{"to":` },
      { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: `"Mars"}` },
      {
        type: "tool-input-error",
        toolCallId: "c1",
        toolName: "teleport",
        input: { to: "Mars" },
        errorText: "no such tool"
      },
      { type: "tool-input-start", toolCallId: "c2", toolName: "lookup", providerExecuted: true },
      {
        type: "tool-input-available",
        toolCallId: "c2",
        toolName: "lookup",
        input: {},
        providerMetadata: { p: { a: 1 } }
      },
      { type: "tool-output-error", toolCallId: "c2", errorText: "failed", providerMetadata: { p: { b: 2 } } },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop", messageMetadata: { finished: true, usage: { inputTokens: 1 } } }
    ]))

  it.effect.prop(
    "text and reasoning in any number of deltas",
    [Schema.Array(Schema.String), Schema.Array(Schema.String)],
    ([textDeltas, reasoningDeltas]) =>
      Effect.gen(function*() {
        const chunks: Array<UIMessageChunk> = [
          { type: "start", messageId: "m" },
          { type: "start-step" },
          { type: "reasoning-start", id: "r" },
          ...reasoningDeltas.map((delta): UIMessageChunk => ({ type: "reasoning-delta", id: "r", delta })),
          { type: "reasoning-end", id: "r" },
          { type: "text-start", id: "t" },
          ...textDeltas.map((delta): UIMessageChunk => ({ type: "text-delta", id: "t", delta })),
          { type: "text-end", id: "t" },
          { type: "finish-step" },
          { type: "finish", messageMetadata: { finished: true, usage: {} } }
        ]
        yield* expectSameMessage(chunks)
        const message = collectMessage(chunks)
        assert.deepStrictEqual(message.parts[2], { type: "text", text: textDeltas.join(""), state: "done" })
      })
  )
})
