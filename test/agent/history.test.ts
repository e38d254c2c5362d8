import type { LanguageModelV4 } from "@ai-sdk/provider"
import { assert, describe, it } from "@effect/vitest"
import type { ModelMessage, ToolResultPart } from "ai"
import { Effect, Schema } from "effect"
import { conversation, initialPrompt, plainStart } from "../../src/agent/history.ts"
import type { ClientFetch } from "../../src/tools/outbound/fetchForClient.ts"
import type { Tool } from "../../src/tools/Tool.ts"

const model = { provider: "bench.chat", supportedUrls: {} } as unknown as LanguageModelV4
const fetch = (() => Promise.reject(new Error("no fetch in this test"))) as unknown as ClientFetch
const texts = Schema.Array(Schema.Array(Schema.Union([Schema.String, Schema.Literal("")])))

const userMessages = (parts: ReadonlyArray<ReadonlyArray<string>>): Array<ModelMessage> =>
  parts.map((message) => ({ role: "user", content: message.map((text) => ({ type: "text" as const, text })) }))

describe("plainStart", () => {
  it.effect.prop(
    "makes the prompt the AI SDK's conversion makes for user messages of text",
    [texts, Schema.String],
    ([parts, system]) =>
      Effect.gen(function*() {
        const messages = userMessages(parts)
        const history = yield* conversation(model, "bench", messages, fetch)
        const expected = yield* initialPrompt(history.target, "bench", system, history.messages)
        const plain = plainStart(model, system, messages, fetch)
        assert.deepStrictEqual(plain?.prompt, expected)
        assert.deepStrictEqual(plain?.target.supportedUrls, history.target.supportedUrls)
        assert.strictEqual(plain?.target.provider, history.target.provider)
      })
  )

  it("leaves anything else to the AI SDK: an assistant message, a file, text as a string, a model whose URLs are a promise", () => {
    const assistant: Array<ModelMessage> = [{ role: "assistant", content: [{ type: "text", text: "hi" }] }]
    const file: Array<ModelMessage> = [{
      role: "user",
      content: [{ type: "file", mediaType: "image/png", data: new URL("https://example.com/a.png") }]
    }]
    const later = { provider: "x", supportedUrls: Promise.resolve({}) } as unknown as LanguageModelV4
    assert.isUndefined(plainStart(model, "", assistant, fetch))
    assert.isUndefined(plainStart(model, "", file, fetch))
    assert.isUndefined(plainStart(model, "", [{ role: "user", content: "hi" }], fetch))
    assert.isUndefined(plainStart(later, "", userMessages([["hi"]]), fetch))
    assert.isDefined(plainStart(model, "", userMessages([["hi"]]), fetch))
  })
})

describe("conversation", () => {
  const shot = {
    name: "shot",
    toModelOutput: (output: unknown) => ({ type: "text", value: `told: ${JSON.stringify(output)}` })
  }
  const result = (toolName: string, output: ToolResultPart["output"]): ToolResultPart => ({
    type: "tool-result",
    toolCallId: "c",
    toolName,
    output
  })
  const history = (...results: Array<ToolResultPart>): Array<ModelMessage> => [
    { role: "user", content: [{ type: "text", text: "go" }] },
    {
      role: "assistant",
      content: results.map(({ toolCallId, toolName }) => ({ type: "tool-call", toolCallId, toolName, input: {} }))
    },
    { role: "tool", content: results }
  ]

  it.effect("tells the model the outputs of the run's tools as the run does, and leaves the rest as they came", () =>
    Effect.gen(function*() {
      const messages = history(
        result("shot", { type: "json", value: { png: "x" } }),
        result("shot", { type: "text", value: "plain" }),
        result("shot", { type: "error-text", value: "it broke" }),
        result("other", { type: "json", value: { png: "x" } })
      )
      const told = yield* conversation(model, "bench", messages, fetch, [{ tool: shot as unknown as Tool }])
      assert.deepStrictEqual(told.messages[2], {
        role: "tool",
        content: [
          result("shot", { type: "text", value: `told: {"png":"x"}` }),
          result("shot", { type: "text", value: `told: "plain"` }),
          result("shot", { type: "error-text", value: "it broke" }),
          result("other", { type: "json", value: { png: "x" } })
        ]
      })
      // The client's messages are not changed.
      assert.deepStrictEqual(messages[2]!.content[0], result("shot", { type: "json", value: { png: "x" } }))
      const none = yield* conversation(model, "bench", messages, fetch)
      assert.deepStrictEqual(none.messages, messages)
    }))
})
