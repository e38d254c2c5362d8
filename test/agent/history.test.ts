import type { LanguageModelV4 } from "@ai-sdk/provider"
import { assert, describe, it } from "@effect/vitest"
import type { UIMessage } from "ai"
import { Effect, Schema } from "effect"
import { conversation, initialPrompt, plainStart } from "../../src/agent/history.ts"
import type { ClientFetch } from "../../src/tools/outbound/fetchForClient.ts"

const model = { provider: "bench.chat", supportedUrls: {} } as unknown as LanguageModelV4
const fetch = (() => Promise.reject(new Error("no fetch in this test"))) as unknown as ClientFetch
const texts = Schema.Array(Schema.Array(Schema.Union([Schema.String, Schema.Literal("")])))

const userMessages = (parts: ReadonlyArray<ReadonlyArray<string>>): Array<UIMessage> =>
  parts.map((message, i) => ({
    id: `m${i}`,
    role: "user",
    parts: message.map((text) => ({ type: "text" as const, text }))
  }))

describe("plainStart", () => {
  it.effect.prop(
    "makes the prompt the AI SDK's conversions make for user messages of text",
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

  it("leaves anything else to the AI SDK: an assistant message, a file, a model whose URLs are a promise", () => {
    const assistant: Array<UIMessage> = [{ id: "a", role: "assistant", parts: [{ type: "text", text: "hi" }] }]
    const file: Array<UIMessage> = [{
      id: "f",
      role: "user",
      parts: [{ type: "file", mediaType: "image/png", url: "https://example.com/a.png" }]
    }]
    const later = { provider: "x", supportedUrls: Promise.resolve({}) } as unknown as LanguageModelV4
    assert.isUndefined(plainStart(model, "", assistant, fetch))
    assert.isUndefined(plainStart(model, "", file, fetch))
    assert.isUndefined(plainStart(later, "", userMessages([["hi"]]), fetch))
    assert.isDefined(plainStart(model, "", userMessages([["hi"]]), fetch))
  })
})
