import { assert, describe, it } from "@effect/vitest"
import { convertToModelMessages, safeValidateUIMessages } from "ai"
import { Arbitrary, Effect, Schema } from "effect"
import { decodeChatRequest } from "../../src/domain/ChatRequest.ts"
import { Message, normalizeMessages } from "../../src/domain/Message.ts"
import { FullMessage, SimpleMessage, viaJson } from "./generators.ts"

const decodeMessages = (messages: ReadonlyArray<unknown>) =>
  Effect.map(decodeChatRequest({ model: "a/b", messages }), (chat) => chat.messages)

const rejection = (messages: ReadonlyArray<unknown>) =>
  Effect.map(Effect.flip(decodeChatRequest({ model: "a/b", messages })), (error) => error.message)

const conversations = Arbitrary.schema(Schema.Array(Schema.Union([SimpleMessage, FullMessage]))).pipe(
  Arbitrary.map(viaJson)
)

describe("Message parts", () => {
  it.effect("accepts every part type with its required fields and keeps extra fields", () =>
    Effect.gen(function*() {
      const parts = [
        { type: "step-start" },
        { type: "text", text: "hi", state: "done", providerMetadata: { openai: { id: "x" } } },
        { type: "reasoning", text: "thinking" },
        { type: "file", mediaType: "image/png", url: "https://example.com/a.png", filename: "a.png" },
        { type: "reasoning-file", mediaType: "image/png", url: "data:image/png;base64,AA==" },
        { type: "source-url", sourceId: "s1", url: "https://example.com" },
        { type: "source-document", sourceId: "s2", mediaType: "application/pdf", title: "Doc" },
        {
          type: "dynamic-tool",
          toolName: "bash",
          toolCallId: "c1",
          state: "output-available",
          input: { command: "ls" },
          output: "a\nb"
        },
        {
          type: "dynamic-tool",
          toolName: "bash",
          toolCallId: "c2",
          state: "output-error",
          input: {},
          errorText: "boom"
        },
        { type: "dynamic-tool", toolName: "bash", toolCallId: "c3", state: "input-streaming" },
        { type: "tool-weather", toolCallId: "c4", state: "input-available", input: { city: "Oslo" } },
        { type: "data-progress", data: { percent: 50 } },
        { type: "custom", kind: "openai.web-search" },
        { type: "steering-message", id: "m9", parts: [{ type: "text", text: "also this" }] }
      ]
      const decoded = yield* decodeMessages([{ id: "m1", role: "assistant", parts }])
      assert.deepStrictEqual(decoded[0]?.parts, parts)
      const validated = yield* Effect.promise(() =>
        safeValidateUIMessages({ messages: [...normalizeMessages(decoded)] })
      )
      assert.isTrue(validated.success)
    }))

  it.effect.each(
    [
      [[{ role: "user", parts: [{ type: "text" }] }], `Invalid request: "messages[0].parts[0].text" is required`],
      [
        [{ role: "user", parts: [{ type: "text", text: 5 }] }],
        `Invalid request: "messages[0].parts[0].text": Expected string`
      ],
      [[{ role: "user", parts: [{ text: "x" }] }], `Invalid request: "messages[0].parts[0].type" is required`],
      [
        [{ role: "user", parts: [{ type: "audio", text: "x" }] }],
        `Invalid request: "messages[0].parts[0].type" is not a known part type (text, reasoning, file, reasoning-file, source-url, source-document, step-start, custom, steering-message, dynamic-tool, tool-<name>, data-<name>)`
      ],
      [
        [{
          role: "assistant",
          parts: [{ type: "dynamic-tool", toolName: "bash", toolCallId: "c", state: "output-available", input: {} }]
        }],
        `Invalid request: "messages[0].parts[0].output" is required when "state" is "output-available"`
      ],
      [
        [{
          role: "assistant",
          parts: [{ type: "dynamic-tool", toolCallId: "c", state: "input-available", input: {} }]
        }],
        `Invalid request: "messages[0].parts[0].toolName" is required`
      ],
      [
        [{ role: "assistant", parts: [{ type: "tool-x", toolCallId: "c", state: "input-available" }] }],
        `Invalid request: "messages[0].parts[0].input" is required when "state" is "input-available"`
      ],
      [
        [{ role: "user", parts: [{ type: "file", url: "x" }] }],
        `Invalid request: "messages[0].parts[0].mediaType" is required`
      ],
      [[{ role: "user", parts: "hello" }], `Invalid request: "messages[0].parts": Expected array`],
      [[{ role: "user", parts: [] }], `Invalid request: "messages[0].parts" must contain at least one part`],
      [
        [{ role: "user" }],
        `Invalid request: "messages[0]" needs "content" (simplified form) or "parts" (full UIMessage form)`
      ],
      [[{ role: "user", content: ["x"] }], `Invalid request: "messages[0].content": Expected string`],
      [
        [{ role: "tool", content: "x" }],
        `Invalid request: "messages[0].role": Expected "user" | "assistant" | "system"`
      ]
    ] as const
  )(
    "rejects %j",
    ([messages, message]) => Effect.map(rejection(messages), (actual) => assert.strictEqual(actual, message))
  )
})

describe("normalizeMessages", () => {
  it.effect("turns a simplified message into one text part and generates an id", () =>
    Effect.gen(function*() {
      const [message] = normalizeMessages(yield* decodeMessages([{ role: "user", content: "Hello" }]))
      assert.deepStrictEqual(message?.parts, [{ type: "text", text: "Hello" }])
      assert.strictEqual(message?.role, "user")
      assert.match(message?.id ?? "", /^msg_\w+$/)
    }))

  it.effect("uses parts when a message has both content and parts", () =>
    Effect.gen(function*() {
      const [message] = normalizeMessages(
        yield* decodeMessages([{
          id: "k",
          role: "assistant",
          content: "old",
          parts: [{ type: "text", text: "new" }],
          metadata: { n: 1 }
        }])
      )
      assert.deepStrictEqual(message, {
        id: "k",
        role: "assistant",
        parts: [{ type: "text", text: "new" }],
        metadata: { n: 1 }
      })
    }))

  it.effect("a message with both is judged by its parts, not rescued by content", () =>
    Effect.map(
      rejection([{ role: "user", content: "fine", parts: [{ type: "text" }] }]),
      (message) => assert.strictEqual(message, `Invalid request: "messages[0].parts[0].text" is required`)
    ))

  it.effect.prop(
    "keeps order, roles, text and client ids; generated ids are unique",
    [conversations],
    ([input]) =>
      Effect.gen(function*() {
        const normalized = normalizeMessages(yield* decodeMessages(input))
        assert.strictEqual(normalized.length, input.length)
        const generated = normalized.filter((_, index) => "content" in input[index]!).map((message) => message.id)
        assert.strictEqual(new Set(generated).size, generated.length)
        normalized.forEach((message, index) => {
          const original = input[index]!
          assert.strictEqual(message.role, original.role)
          if ("content" in original) {
            assert.deepStrictEqual(message.parts, [{ type: "text", text: original.content }])
          } else {
            assert.strictEqual(message.id, original.id)
            assert.deepStrictEqual<unknown>(message.parts, original.parts)
            assert.deepStrictEqual(message.metadata, original.metadata)
          }
        })
      })
  )

  it.effect.prop(
    "yields messages the AI SDK accepts and converts",
    [conversations],
    ([input]) =>
      Effect.gen(function*() {
        const normalized = normalizeMessages(yield* decodeMessages(input))
        if (normalized.length === 0) return
        const validated = yield* Effect.promise(() => safeValidateUIMessages({ messages: [...normalized] }))
        assert.isTrue(validated.success, validated.success ? "" : String(validated.error))
        yield* Effect.promise(() => convertToModelMessages([...normalized]))
      })
  )
})

describe("Message schema", () => {
  it.effect("drops unknown message-level fields, keeps known ones", () =>
    Effect.map(
      Schema.decodeUnknownEffect(Message)({ role: "user", content: "x", name: "bob", id: "1" }),
      (message) => assert.deepStrictEqual(message, { role: "user", content: "x", id: "1" })
    ))
})
