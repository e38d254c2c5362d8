import { describe, expect, it } from "vitest"
import type { RunEvent } from "../../../src/agent/RunEvent.ts"
import { completionStream } from "../../../src/protocols/chat-completions/encode.ts"
import { inputStart, toolCall } from "../runEvents.ts"

const events = (text: string) =>
  text.split("\n\n").filter((event) => event !== "").map((event) => event.replace(/^data: /, ""))

describe("the chat.completion.chunk stream", () => {
  it("writes each chunk as the JSON of the whole chunk object, the answer's fields in every one", () => {
    const encoding = completionStream({
      correlationId: "c1",
      wire: { model: "test/m1", includeUsage: true, origins: [] },
      plan: undefined as never
    })
    const chunks: Array<RunEvent> = [
      { type: "start", messageId: "m" },
      { type: "start-step" },
      { type: "text-delta", id: "t", delta: "Hi \"there\"\n" },
      {
        type: "finish",
        finishReason: "stop",
        summary: { finished: true, finishReason: "stop", usage: { inputTokens: 3, outputTokens: 2 } }
      }
    ]
    const written = events(chunks.map(encoding.chunk).join("") + encoding.end())
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

  it("writes the bytes of OpenAI's chunks for every kind of delta, however the chunk is put together", () => {
    const encoding = completionStream({
      correlationId: "c2",
      wire: { model: "test/m\u00e9", includeUsage: true, origins: [] },
      plan: undefined as never
    })
    const chunks: Array<RunEvent> = [
      { type: "start", messageId: "m" },
      { type: "start-step" },
      { type: "reasoning-delta", id: "r", delta: "think \u201cfirst\u201d" },
      { type: "reasoning-delta", id: "r", delta: "" },
      { type: "text-delta", id: "t", delta: "Caf\u00e9 \"\\\n\u{1F600}" },
      { type: "text-delta", id: "t", delta: "" },
      inputStart("s1", "server_tool", "server"),
      { type: "tool-input-delta", toolCallId: "s1", inputTextDelta: "{}" },
      inputStart("call_1", "lookup", "client"),
      { type: "tool-input-delta", toolCallId: "call_1", inputTextDelta: "{\"q\":" },
      { type: "tool-input-delta", toolCallId: "call_1", inputTextDelta: "\"\u00fc\"}" },
      toolCall("call_1", "lookup", { q: "\u00fc" }, "client"),
      toolCall("call_2", "pick", { n: 2 }, "client"),
      { type: "start-step" },
      { type: "text-delta", id: "t2", delta: "next" },
      {
        type: "finish",
        finishReason: "stop",
        summary: { finished: true, finishReason: "stop", usage: { inputTokens: 3, outputTokens: 2 } }
      }
    ]
    const written = chunks.map(encoding.chunk).join("") + encoding.end()
    const created = JSON.parse(written.slice("data: ".length, written.indexOf("\n\n"))).created
    const answer = { id: "chatcmpl-c2", object: "chat.completion.chunk", created, model: "test/m\u00e9" }
    const chunk = (delta: object, finishReason: string | null = null) =>
      `data: ${
        JSON.stringify({ ...answer, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })
      }\n\n`
    expect(written).toBe([
      chunk({ role: "assistant", content: "" }),
      chunk({ reasoning_content: "think \u201cfirst\u201d" }),
      chunk({ content: "Caf\u00e9 \"\\\n\u{1F600}" }),
      chunk({
        tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "lookup", arguments: "" } }]
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: "{\"q\":" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: "\"\u00fc\"}" } }] }),
      chunk({
        tool_calls: [{ index: 1, id: "call_2", type: "function", function: { name: "pick", arguments: "{\"n\":2}" } }]
      }),
      chunk({ content: "\n\nnext" }),
      chunk({}, "tool_calls"),
      `data: ${
        JSON.stringify({
          ...answer,
          choices: [],
          usage: {
            prompt_tokens: 3,
            completion_tokens: 2,
            total_tokens: 5,
            prompt_tokens_details: { cached_tokens: 0 },
            completion_tokens_details: { reasoning_tokens: 0 }
          }
        })
      }\n\n`,
      "data: [DONE]\n\n"
    ].join(""))
  })
})
