import { APICallError, type LanguageModelV4StreamPart, type LanguageModelV4StreamResult } from "@ai-sdk/provider"
import { assert, describe, expect, it } from "@effect/vitest"
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test"
import { Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { makeTestTool } from "../support/tools.ts"
import {
  finish,
  finishMetadata,
  makeRun,
  runCollected,
  runCollecting,
  scriptedModel,
  start,
  text,
  toolCall,
  upstreamFailure
} from "./fixtures.ts"

const apiError = (statusCode: number, headers: Record<string, string> = {}, message = "upstream said no") =>
  new APICallError({
    message,
    url: "https://api.example.com/v1/chat/completions?key=sk-url-secret-0123456789",
    requestBodyValues: { apiKey: "sk-body-secret" },
    statusCode,
    responseHeaders: headers,
    responseBody: `{"error":"${message}","key":"sk-body-secret"}`
  })

const answer = (parts: ReadonlyArray<LanguageModelV4StreamPart>) => async (): Promise<LanguageModelV4StreamResult> => ({
  stream: convertArrayToReadableStream([...parts])
})

const fail = (error: unknown) => async (): Promise<LanguageModelV4StreamResult> => {
  throw error
}

/** A model that answers call n with `answers[n]` (the last one repeats). */
const sequenceModel = (...answers: ReadonlyArray<() => Promise<LanguageModelV4StreamResult>>) => {
  let calls = 0
  return new MockLanguageModelV4({ doStream: () => answers[Math.min(calls++, answers.length - 1)]!() })
}

const hello = [start, ...text("0", "Hello"), finish("stop")]

describe("first model call fails", () => {
  it.live("a refused request fails the stream before any chunk, without retries", () =>
    Effect.gen(function*() {
      const model = sequenceModel(fail(apiError(400, {}, "Incorrect API key provided: sk-proj-abcdefghijklmnop1234")))
      const { chunks, exit } = yield* runCollecting(makeRun(model, []))

      assert.deepStrictEqual(chunks, [])
      assert.strictEqual(model.doStreamCalls.length, 1)
      const error = upstreamFailure(exit)
      expect(error).toMatchObject({ provider: "mock", status: 400, _tag: "ProviderRejected" })
      expect(error?.message).toContain("Incorrect API key provided: [redacted]")
      expect(error?.message).not.toContain("sk-")
    }))

  it.live("retries a 429 honouring a short Retry-After, then streams the answer", () =>
    Effect.gen(function*() {
      const model = sequenceModel(fail(apiError(429, { "retry-after-ms": "5" })), answer(hello))
      const { chunks, exit } = yield* runCollecting(makeRun(model, []))

      assert.isTrue(Exit.isSuccess(exit))
      assert.strictEqual(model.doStreamCalls.length, 2)
      assert.strictEqual(chunks[0]?.type, "start")
      expect(finishMetadata(chunks)).toMatchObject({ finished: true })
    }))

  it.live("gives up after two retries with ProviderUnavailable", () =>
    Effect.gen(function*() {
      const model = sequenceModel(fail(apiError(503, { "retry-after": "0.005" })))
      const { chunks, exit } = yield* runCollecting(makeRun(model, []))

      assert.deepStrictEqual(chunks, [])
      assert.strictEqual(model.doStreamCalls.length, 3)
      expect(upstreamFailure(exit)).toMatchObject({ status: 503, _tag: "ProviderUnavailable" })
    }))

  it.live("does not wait for a long Retry-After", () =>
    Effect.gen(function*() {
      const model = sequenceModel(fail(apiError(429, { "retry-after": "120" })), answer(hello))
      const { exit } = yield* runCollecting(makeRun(model, []))

      assert.strictEqual(model.doStreamCalls.length, 1)
      expect(upstreamFailure(exit)).toMatchObject({ status: 429, _tag: "ProviderUnavailable" })
    }))

  it.effect("retries a network failure with backoff", () =>
    Effect.gen(function*() {
      const model = sequenceModel(fail(new TypeError("fetch failed")), answer(hello))
      const fiber = yield* runCollecting(makeRun(model, [])).pipe(Effect.forkChild)
      for (let i = 0; i < 20 && model.doStreamCalls.length < 2; i++) {
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1)))
        yield* TestClock.adjust("500 millis")
      }
      const { exit } = yield* Fiber.join(fiber)

      assert.isTrue(Exit.isSuccess(exit))
      assert.strictEqual(model.doStreamCalls.length, 2)
    }))

  it.live("an error part before any answer is a failure before any chunk", () =>
    Effect.gen(function*() {
      const model = sequenceModel(answer([start, { type: "error", error: { message: "context length exceeded" } }]))
      const { chunks, exit } = yield* runCollecting(makeRun(model, []))

      assert.deepStrictEqual(chunks, [])
      expect(upstreamFailure(exit)).toMatchObject({
        _tag: "ProviderRejected",
        message: "mock failed: context length exceeded"
      })
    }))
})

describe("failures after the stream began", () => {
  it.live("an error part mid-answer fails the stream after the chunks sent so far, without retry", () =>
    Effect.gen(function*() {
      const model = sequenceModel(
        answer([start, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Hal" }, {
          type: "error",
          error: apiError(500)
        }]),
        answer(hello)
      )
      const { chunks, exit } = yield* runCollecting(makeRun(model, []))

      expect(chunks.map((chunk) => chunk.type)).toEqual([
        "start",
        "start-step",
        "text-start",
        "text-delta",
        "text-end",
        "finish-step",
        "error",
        "finish"
      ])
      assert.strictEqual(model.doStreamCalls.length, 1)
      expect(chunks.at(-2)).toEqual({ type: "error", errorText: "failed: mock answered HTTP 500: upstream said no" })
      expect(chunks.at(-1)).toMatchObject({
        type: "finish",
        finishReason: "error",
        messageMetadata: { finished: false, finishReason: "error", usage: {} }
      })
      expect(Exit.isSuccess(exit) ? exit.value : undefined).toEqual(finishMetadata(chunks))
    }))

  it.live("an answer sent in one piece fails with the provider failure instead", () =>
    Effect.gen(function*() {
      const model = sequenceModel(
        answer([start, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Hal" }, {
          type: "error",
          error: apiError(500)
        }])
      )
      const exit = yield* Effect.exit(runCollected(makeRun(model, [])))

      expect(upstreamFailure(exit)).toMatchObject({ status: 500, _tag: "ProviderUnavailable" })
    }))

  it.live("a connection dropped mid-answer fails the stream", () =>
    Effect.gen(function*() {
      let sent = false
      const model = new MockLanguageModelV4({
        doStream: async () => ({
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            pull(controller) {
              if (sent) return controller.error(new TypeError("terminated"))
              sent = true
              controller.enqueue({ type: "text-start", id: "t" })
              controller.enqueue({ type: "text-delta", id: "t", delta: "Hal" })
            }
          })
        })
      })
      const { chunks } = yield* runCollecting(makeRun(model, []))

      assert.strictEqual(model.doStreamCalls.length, 1)
      expect(chunks.slice(4)).toEqual([
        { type: "text-end", id: "t" },
        { type: "finish-step" },
        { type: "error", errorText: "failed: mock could not be reached" },
        {
          type: "finish",
          finishReason: "error",
          messageMetadata: { finished: false, finishReason: "error", usage: {} }
        }
      ])
    }))
})

describe("tool failures", () => {
  it.live("a defect in a tool becomes an error output with a generic text, and the loop goes on", () =>
    Effect.gen(function*() {
      const broken = makeTestTool({ name: "broken", execute: () => Effect.die(new Error("db password is hunter2")) })
      const model = scriptedModel([
        [start, ...toolCall("call-1", "broken", `{"text":"x"}`), finish("tool-calls")],
        [start, ...text("0", "Sorry."), finish("stop")]
      ])
      const { chunks } = yield* runCollecting(makeRun(model, [broken]))

      expect(chunks.find((chunk) => chunk.type === "tool-output-error")).toEqual({
        type: "tool-output-error",
        toolCallId: "call-1",
        errorText: "Error: tool broken failed unexpectedly",
        dynamic: true
      })
      expect(JSON.stringify(model.doStreamCalls[1]?.prompt)).toContain("Error: tool broken failed unexpectedly")
      expect(finishMetadata(chunks)).toMatchObject({ finished: true })
    }))
})

describe("a conversation the model cannot be sent", () => {
  it.live("fails with InvalidHistory before any model call", () =>
    Effect.gen(function*() {
      const model = scriptedModel([hello])
      const { chunks, exit } = yield* runCollecting(makeRun(model, [], {
        messages: [
          { role: "assistant", content: [{ type: "tool-call", toolName: "echo", toolCallId: "c", input: {} }] },
          { role: "user", content: [{ type: "text", text: "and?" }] }
        ]
      }))

      assert.deepStrictEqual(chunks, [])
      assert.strictEqual(model.doStreamCalls.length, 0)
      expect(upstreamFailure(exit)).toMatchObject({ _tag: "InvalidHistory", path: "messages" })
    }))
})
