import { describe, expect, it } from "vitest"
import { toConversation } from "../../../src/protocols/chat-completions/messages.ts"
import type { CompletionMessage } from "../../../src/protocols/chat-completions/request.ts"

const png = "data:image/png;base64,iVBORw0KGgo="
const call = (id: string, name: string, args: string) => ({
  id,
  type: "function" as const,
  function: { name, arguments: args }
})

describe("Chat Completions messages as the model's (docs/DESIGN.md §14)", () => {
  it("makes the model's messages, each with the body's message it comes from", () => {
    const messages: ReadonlyArray<CompletionMessage> = [
      { role: "system", content: "Be brief." },
      { role: "developer", content: [{ type: "text", text: "Be kind." }] },
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: png, detail: "low" } },
          { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } }
        ]
      },
      {
        role: "assistant",
        reasoning_content: "Look it up.",
        content: [{ type: "text", text: "Checking" }, { type: "refusal", refusal: "." }],
        tool_calls: [call("c1", "lookup", "{\"q\":\"cat\"}"), call("c2", "now", "")]
      },
      { role: "tool", tool_call_id: "c2", content: "noon" },
      { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "a " }, { type: "text", text: "cat" }] },
      { role: "system", content: "Answer now." },
      { role: "assistant", content: "A cat." }
    ]
    expect(toConversation(messages)).toStrictEqual({
      system: "Be brief.\n\nBe kind.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "file", mediaType: "image/png", data: { type: "url", url: new URL(png) } },
            { type: "file", mediaType: "image/*", data: { type: "url", url: new URL("https://example.com/cat.jpg") } }
          ]
        },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "Look it up." },
            { type: "text", text: "Checking" },
            { type: "text", text: "." },
            { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: { q: "cat" } },
            { type: "tool-call", toolCallId: "c2", toolName: "now", input: {} }
          ]
        },
        {
          role: "tool",
          content: [
            { type: "tool-result", toolCallId: "c1", toolName: "lookup", output: { type: "text", value: "a cat" } },
            { type: "tool-result", toolCallId: "c2", toolName: "now", output: { type: "text", value: "noon" } }
          ]
        },
        { role: "system", content: "Answer now." },
        { role: "assistant", content: [{ type: "text", text: "A cat." }] }
      ],
      origins: [2, 3, 3, 6, 7]
    })
  })

  it("sends no assistant message with nothing to say, and a user message of nothing as such", () => {
    const found = toConversation([
      { role: "user", content: "" },
      { role: "assistant", content: null, reasoning_content: "" },
      { role: "user", content: [] }
    ])
    expect(found).toStrictEqual({
      system: undefined,
      messages: [{ role: "user", content: [] }, { role: "user", content: [] }],
      origins: [0, 2]
    })
  })

  it("names an image URL that does not parse", () => {
    const image = { role: "user" as const, content: [{ type: "image_url" as const, image_url: { url: "cat.png" } }] }
    expect(toConversation([image])).toStrictEqual([
      `"messages[0].content[0].image_url.url" is not a URL: send a data URL or an http(s) URL`
    ])
  })
})
