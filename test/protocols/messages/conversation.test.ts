import { describe, expect, it } from "vitest"
import { toConversation } from "../../../src/protocols/messages/conversation.ts"
import type { Message } from "../../../src/protocols/messages/request.ts"

const png = { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } as const
const pngUrl = new URL("data:image/png;base64,iVBORw0KGgo=")

describe("Anthropic's messages as the model's (docs/DESIGN.md §14)", () => {
  it("makes the model's messages, each with the body's message it comes from and its parts' places", () => {
    const messages: ReadonlyArray<Message> = [
      { role: "system", content: "Be kind." },
      { role: "user", content: [{ type: "text", text: "Weather?" }, { type: "image", source: png }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Look it up.", signature: "sig" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "tool_use", id: "t1", name: "weather", input: { city: "Oslo" } },
          { type: "mcp_tool_use", id: "m1", name: "search", server_name: "parley", input: { q: "Oslo" } },
          { type: "mcp_tool_result", tool_use_id: "m1", is_error: true, content: [{ type: "text", text: "down" }] },
          { type: "tool_use", id: "t2", name: "time", input: null }
        ]
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t2", content: "noon" },
          { type: "text", text: "Also this:" },
          {
            type: "tool_result",
            tool_use_id: "t1",
            content: [{ type: "text", text: "rain" }, {
              type: "image",
              source: { type: "url", url: "https://x.test/m.png" }
            }]
          }
        ]
      },
      { role: "system", content: [{ type: "text", text: "Answer now." }] },
      { role: "assistant", content: "Rain at noon." }
    ]
    expect(toConversation("Be brief.", messages)).toStrictEqual({
      system: "Be brief.\n\nBe kind.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Weather?" },
            { type: "file", mediaType: "image/png", data: { type: "url", url: pngUrl } }
          ]
        },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "Look it up.", providerOptions: { anthropic: { signature: "sig" } } },
            { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "opaque" } } },
            { type: "tool-call", toolCallId: "t1", toolName: "weather", input: { city: "Oslo" } },
            { type: "tool-call", toolCallId: "m1", toolName: "search", input: { q: "Oslo" } },
            { type: "tool-call", toolCallId: "t2", toolName: "time", input: {} }
          ]
        },
        {
          role: "tool",
          content: [
            { type: "tool-result", toolCallId: "t1", toolName: "weather", output: { type: "text", value: "rain" } },
            {
              type: "tool-result",
              toolCallId: "m1",
              toolName: "search",
              output: { type: "error-text", value: "down" }
            },
            { type: "tool-result", toolCallId: "t2", toolName: "time", output: { type: "text", value: "noon" } }
          ]
        },
        {
          role: "user",
          content: [
            { type: "text", text: "Also this:" },
            { type: "file", mediaType: "image/*", data: { type: "url", url: new URL("https://x.test/m.png") } }
          ]
        },
        { role: "system", content: "Answer now." },
        { role: "assistant", content: [{ type: "text", text: "Rain at noon." }] }
      ],
      origins: [1, 2, 2, 3, 4, 5],
      places: [
        ["messages[1].content[0]", "messages[1].content[1]"],
        [
          "messages[2].content[0]",
          "messages[2].content[1]",
          "messages[2].content[2]",
          "messages[2].content[3]",
          "messages[2].content[5]"
        ],
        ["messages[3].content[2]", "messages[2].content[4]", "messages[3].content[0]"],
        ["messages[3].content[1]", "messages[3].content[2].content[1]"],
        [],
        ["messages[5].content[0]"]
      ]
    })
  })

  it("sends no assistant message with nothing to say, nor a user message of nothing but results", () => {
    const found = toConversation(undefined, [
      { role: "user", content: "" },
      { role: "assistant", content: [] },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1" }] }
    ])
    expect(found).toStrictEqual({
      system: undefined,
      messages: [
        { role: "user", content: [] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "t1", toolName: "f", input: {} }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "t1", toolName: "f", output: { type: "text", value: "" } }]
        }
      ],
      origins: [0, 2, 2],
      places: [[], ["messages[2].content[0]"], ["messages[3].content[0]"]]
    })
  })

  it("answers a tool_use id used twice once, as the AI SDK did", () => {
    const use = { type: "tool_use", id: "t1", name: "f", input: {} } as const
    const found = toConversation(undefined, [
      { role: "assistant", content: [use, use] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "r" }] }
    ])
    expect(found).toMatchObject({
      messages: [
        { role: "assistant", content: [{ toolCallId: "t1" }, { toolCallId: "t1" }] },
        { role: "tool", content: [{ toolCallId: "t1", output: { type: "text", value: "r" } }] }
      ],
      origins: [0, 0]
    })
  })

  it("names an image URL that does not parse", () => {
    const image = { type: "image", source: { type: "url", url: "cat.png" } } as const
    expect(toConversation(undefined, [{ role: "user", content: [image] }])).toStrictEqual([
      `"messages[0].content[0].source.url" is not a URL: send an http(s) URL or the image as base64`
    ])
  })
})
