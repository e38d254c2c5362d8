import { OpenAICompatibleChatLanguageModel } from "@ai-sdk/openai-compatible"
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { ChunkSchema } from "../../../src/models/openaiCompatible/chunkShape.ts"
import { StreamParts } from "../../../src/models/openaiCompatible/StreamParts.ts"
import { joined } from "./joinedParts.ts"

// The SDK model's own chunk schema, as parley's model takes it, for the chunks the hand check leaves to it.
const chunkSchema = (new OpenAICompatibleChatLanguageModel("m1", {
  provider: "local.chat",
  url: () => "http://127.0.0.1:1/v1/chat/completions",
  includeUsage: true
}) as unknown as { chunkSchema: ChunkSchema }).chunkSchema

const pieces = Schema.Array(Schema.String)
const answer = Schema.Struct({
  reasoning: pieces,
  text: pieces,
  // Arguments are JSON, cut anywhere: no piece but the last ends a call's JSON.
  toolCalls: Schema.Array(Schema.Struct({
    name: Schema.String.check(Schema.isPattern(/^[a-z][a-z0-9_]{0,20}$/)),
    input: Schema.Record(Schema.String, Schema.String),
    cuts: Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000 })))
  })),
  finishReason: Schema.Literals(["stop", "length", "tool_calls", "content_filter"]),
  usage: Schema.NullOr(Schema.Struct({
    prompt_tokens: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100_000 })),
    completion_tokens: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100_000 }))
  }))
})
type Answer = typeof answer.Type
type ToolCall = Answer["toolCalls"][number]

const argumentPieces = (call: ToolCall): Array<string> => {
  const json = JSON.stringify(call.input)
  const at = [...new Set(call.cuts.map((cut) => cut % json.length))].sort((a, b) => a - b)
  return [0, ...at].map((start, i) => json.slice(start, at[i] ?? json.length)).filter((piece) => piece !== "")
}

const meta = { id: "chatcmpl-1", created: 1_700_000_000, model: "m1" }

/** The answer as a stream sends it: reasoning, text and each tool call's arguments in pieces. */
const streamChunks = (a: Answer): Array<unknown> => {
  const chunk = (delta: object, extra: object = {}) => ({ ...meta, choices: [{ index: 0, delta, ...extra }] })
  return [
    chunk({ role: "assistant" }),
    ...a.reasoning.map((piece) => chunk({ reasoning_content: piece })),
    ...a.text.map((piece) => chunk({ content: piece })),
    ...a.toolCalls.flatMap((call, index) => [
      chunk({ tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name: call.name } }] }),
      ...argumentPieces(call).map((piece) => chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
    ]),
    { ...chunk({}, { finish_reason: a.finishReason }), usage: a.usage }
  ]
}

/** The same answer as a non-streamed response sends it. */
const completion = (a: Answer) => ({
  ...meta,
  object: "chat.completion",
  choices: [{
    index: 0,
    message: {
      role: "assistant",
      content: a.text.length === 0 ? null : a.text.join(""),
      ...(a.reasoning.length === 0 ? {} : { reasoning_content: a.reasoning.join("") }),
      ...(a.toolCalls.length === 0 ? {} : {
        tool_calls: a.toolCalls.map((call, index) => ({
          id: `call_${index}`,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.input) }
        }))
      })
    },
    finish_reason: a.finishReason
  }],
  usage: a.usage
})

const partsOf = (feed: (parts: StreamParts) => void) => {
  const parts: Array<LanguageModelV4StreamPart> = []
  const reader = new StreamParts((part) => void parts.push(part), {
    warnings: [],
    metadataKey: "local",
    includeRawChunks: false,
    chunkSchema
  })
  reader.start()
  feed(reader)
  reader.flush()
  return parts
}

describe("a whole answer read as one chunk (completionAsChunk)", () => {
  it.effect.prop(
    "gives the parts of its stream, each text and each tool call's input in one delta",
    [answer],
    ([a]) =>
      Effect.sync(() => {
        const streamed = partsOf((reader) => {
          for (const chunk of streamChunks(a)) reader.data(JSON.stringify(chunk))
        })
        const whole = partsOf((reader) => reader.whole(JSON.stringify(completion(a))))
        assert.deepStrictEqual(joined(whole), joined(streamed))
        assert.isFalse(whole.some((part) => part.type === "error"))
      })
  )

  it.effect("ends in an error part, as a stream's chunk would, for an error body or one that is not JSON", () =>
    Effect.sync(() => {
      const failed = partsOf((reader) => reader.whole(JSON.stringify({ error: { message: "overloaded" } })))
      assert.deepStrictEqual(failed.filter((part) => part.type === "error").map((part) => part.error), [
        { message: "overloaded" }
      ])
      const cut = partsOf((reader) => reader.whole(`{"id": "x", "choices": [`))
      const error = cut.find((part) => part.type === "error")
      assert.strictEqual((error?.error as Error | undefined)?.name, "AI_JSONParseError")
      const finish = cut.at(-1)
      assert.deepStrictEqual(finish?.type === "finish" ? finish.finishReason : finish, {
        unified: "error",
        raw: undefined
      })
    }))
})
