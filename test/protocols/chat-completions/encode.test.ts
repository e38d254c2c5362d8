import type { UIMessageChunk } from "ai"
import { describe, expect, it } from "vitest"
import { completionStream } from "../../../src/protocols/chat-completions/encode.ts"

const events = (text: string) =>
  text.split("\n\n").filter((event) => event !== "").map((event) => event.replace(/^data: /, ""))

describe("the chat.completion.chunk stream", () => {
  it("writes each chunk as the JSON of the whole chunk object, the answer's fields in every one", () => {
    const encoding = completionStream({
      correlationId: "c1",
      wire: { model: "test/m1", includeUsage: true, clientTools: new Set(), origins: [] },
      plan: undefined as never
    })
    const chunks: Array<UIMessageChunk> = [
      { type: "start" },
      { type: "start-step" },
      { type: "text-delta", id: "t", delta: "Hi \"there\"\n" },
      {
        type: "finish",
        messageMetadata: { finished: true, finishReason: "stop", usage: { inputTokens: 3, outputTokens: 2 } }
      }
    ]
    const written = events(chunks.map(encoding.chunk).join("") + encoding.end)
    expect(written.at(-1)).toBe("[DONE]")
    const parsed = written.slice(0, -1).map((event) => JSON.parse(event))
    for (const chunk of parsed) {
      expect(chunk).toMatchObject({ id: "chatcmpl-c1", object: "chat.completion.chunk", model: "test/m1" })
      expect(Number.isInteger(chunk.created)).toBe(true)
    }
    expect(parsed.map((chunk) => chunk.choices[0] ?? null)).toEqual([
      { index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: "Hi \"there\"\n" }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: "stop" },
      null
    ])
    expect(parsed.at(-1).usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 })
  })
})
