import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { afterEach, assert, beforeEach, describe, expect, it } from "@effect/vitest"
import { readUIMessageStream, type UIMessageChunk } from "ai"
import { Effect, Exit } from "effect"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { OpenAICompatibleChatModel } from "../../src/models/openaiCompatible/OpenAICompatibleChatModel.ts"
import { asModel, finishMetadata, makeRun, runCollecting, userMessage } from "./fixtures.ts"
import { normalize, referenceRun } from "./oracle.ts"
import { recordings, repliesOf } from "./recordings/recordings.ts"
import { tools } from "./scenarios.ts"

const API_KEY = "sk-recorded-0123456789abcdef"
const SYSTEM = "You are a test assistant."

// The chunks parley adds when a model call fails mid-answer: every open part ends (docs/DESIGN.md §3.3).
const CLOSING = new Set(["text-end", "reasoning-end", "tool-input-error", "tool-output-error"])

const lastMessage = async (chunks: ReadonlyArray<UIMessageChunk>) => {
  let message
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    }
  })
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot
  return message
}

/**
 * parley (its own model over node:http, its agent) and the AI SDK (its
 * openai-compatible model, streamText, toUIMessageStream) replay the same
 * recorded provider bytes: the chunks must be the same, and so must what
 * each sent the provider.
 */
describe("Agent.run matches streamText + toUIMessageStream on recorded provider streams", () => {
  let mine: Upstream
  let sdk: Upstream
  beforeEach(async () => {
    ;[mine, sdk] = await Promise.all([startUpstream({ apiKey: API_KEY }), startUpstream({ apiKey: API_KEY })])
  })
  afterEach(async () => {
    await Promise.all([mine.close(), sdk.close()])
  })

  for (const recording of recordings) {
    it.live(recording.name, () =>
      Effect.gen(function*() {
        mine.enqueue(...repliesOf(recording))
        sdk.enqueue(...repliesOf(recording))
        const messages = [userMessage("What is the weather in Paris?")]
        const model = new OpenAICompatibleChatModel({
          provider: "rec",
          baseURL: mine.url,
          apiKey: API_KEY,
          modelId: "m"
        })
        const { chunks, exit } = yield* runCollecting(
          makeRun(model, tools, { provider: "rec", messages: yield* asModel(messages) })
        )
        const reference = yield* Effect.promise(() =>
          referenceRun(
            createOpenAICompatible({ name: "rec", baseURL: sdk.url, apiKey: API_KEY, includeUsage: true }).chatModel(
              "m"
            ),
            tools,
            { system: SYSTEM, messages, maxSteps: 30 }
          )
        )

        assert.isTrue(Exit.isSuccess(exit))
        expect(finishMetadata(chunks)).toEqual(recording.expect)
        expect(mine.requests.map((request) => request.body)).toEqual(sdk.requests.map((request) => request.body))
        const failedAt = reference.chunks.findIndex((chunk) => chunk.type === "error")
        if (reference.thrown === undefined && failedAt < 0) {
          expect(normalize(chunks)).toEqual(normalize(reference.chunks))
          return
        }
        // Up to the failure the same chunks; then parley ends the open parts, the step, and the stream.
        const sameUntil = failedAt < 0 ? reference.chunks.length : failedAt
        expect(normalize(chunks.slice(0, sameUntil))).toEqual(normalize(reference.chunks.slice(0, sameUntil)))
        const tail = chunks.slice(sameUntil)
        expect(tail.slice(0, -3).every((chunk) => CLOSING.has(chunk.type))).toBe(true)
        expect(tail.slice(-3).map((chunk) => chunk.type)).toEqual(["finish-step", "error", "finish"])
        expect(tail.at(-1)).toMatchObject({ type: "finish", finishReason: "error" })
        const message = yield* Effect.promise(() => lastMessage(chunks))
        for (const part of message?.parts ?? []) {
          if ("state" in part) expect(part.state).not.toMatch(/streaming|input-available/)
        }
      }))
  }
})
