import { assert, describe, it } from "@effect/vitest"
import type { ModelMessage, ToolResultPart } from "ai"
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base"
import * as o200k from "gpt-tokenizer/encoding/o200k_base"
import {
  counterFor,
  MEDIA_TOKENS,
  MESSAGE_TOKENS,
  TOOL_CALL_TOKENS,
  TOOL_DEFINITION_TOKENS,
  TOOL_RESULT_TOKENS
} from "../../src/prune/tokenCount.ts"
import { fixtures } from "./fixtures.ts"

const options = { disallowedSpecial: new Set<string>() }
const exact = (text: string) => o200k.countTokens(text, options)
const counter = counterFor("o200k_base")
const screenshot = Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 7) % 256)).toString("base64")

describe("token counts of what the model is sent (o200k_base)", () => {
  it("a user message: framing plus its text, as parts or as a string", () => {
    const message: ModelMessage = { role: "user", content: [{ type: "text", text: fixtures.english }] }
    assert.strictEqual(counter.message(message), MESSAGE_TOKENS + exact(fixtures.english))
    assert.strictEqual(counter.message({ role: "user", content: fixtures.english }), counter.message(message))
  })

  it("the system prompt as one message; an empty one is not sent", () => {
    assert.strictEqual(counter.system(fixtures.english), MESSAGE_TOKENS + exact(fixtures.english))
    assert.strictEqual(counter.system(""), 0)
  })

  it("tool steps: name, input as JSON, output as sent, error text; files at a fixed cost; approvals free", () => {
    const input = { command: "ls -la /work", timeout_ms: 5000 }
    const output = { stdout: "total 0\n", exit_code: 0 }
    const turn: ReadonlyArray<ModelMessage> = [
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Let me look." },
          { type: "tool-call", toolCallId: "c1", toolName: "bash", input },
          { type: "tool-call", toolCallId: "c2", toolName: "browser", input: { url: "x" } },
          { type: "tool-approval-request", approvalId: "a2", toolCallId: "c2" },
          { type: "file", mediaType: "image/png", data: { type: "data", data: "AAAA" } }
        ]
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "bash", output: { type: "json", value: output } },
          { type: "tool-approval-response", approvalId: "a2", approved: true },
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "browser",
            output: { type: "error-text", value: "timeout" }
          }
        ]
      },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c3", toolName: "bash", input },
          { type: "tool-call", toolCallId: "c4", toolName: "bash", input: {} },
          { type: "text", text: "Done." }
        ]
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c3",
            toolName: "bash",
            output: { type: "text", value: "plain text out" }
          },
          {
            type: "tool-result",
            toolCallId: "c4",
            toolName: "bash",
            output: { type: "execution-denied", reason: "Not now." }
          }
        ]
      }
    ]
    // Two steps: each an assistant message, and a tool message framed per result.
    const call = TOOL_CALL_TOKENS + TOOL_RESULT_TOKENS
    const expected = 2 * MESSAGE_TOKENS +
      exact("Let me look.") +
      call + exact("bash") + exact(JSON.stringify(input)) + exact(JSON.stringify(output)) +
      call + exact("browser") + exact(JSON.stringify({ url: "x" })) + exact("timeout") +
      MEDIA_TOKENS +
      call + exact("bash") + exact(JSON.stringify(input)) + exact("plain text out") + // a string as is
      call + exact("bash") + exact("{}") + exact("Not now.") +
      exact("Done.")
    assert.strictEqual(counter.input("", [], turn), expected)
    // An answered call costs the 8 it cost as a UI tool part, besides its texts.
    assert.strictEqual(call, 8)
    const approvalOnly: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-approval-response", approvalId: "a5", approved: false }]
    }
    assert.strictEqual(counter.message(approvalOnly), 0)
  })

  it("an image in a tool output costs the fixed media price, not its base64", () => {
    const content = [
      { type: "text", text: "Screenshot of the desktop" },
      { type: "image-data", data: screenshot, mediaType: "image/png" }
    ]
    const result = (output: ToolResultPart["output"]): ModelMessage => ({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c", toolName: "computer", output }]
    })
    // A raw value (what a tool returned) is sent as JSON, its media apart.
    const withoutImage = JSON.stringify({ type: "content", value: [content[0], null] })
    assert.strictEqual(
      counter.message(result({ type: "json", value: { type: "content", value: content } })),
      TOOL_RESULT_TOKENS + exact(withoutImage) + MEDIA_TOKENS
    )
    assert.strictEqual(
      counter.message(result({ type: "text", value: `data:image/png;base64,${screenshot}` })),
      TOOL_RESULT_TOKENS + MEDIA_TOKENS
    )
    // A content output is sent as its texts and media.
    const items = [
      { type: "text", text: "Screenshot of the desktop" },
      { type: "file", mediaType: "image", data: { type: "data", data: screenshot } },
      { type: "image-url", url: "https://example.com/shot.png" }
    ] as const
    assert.strictEqual(
      counter.message(result({ type: "content", value: [...items] })),
      TOOL_RESULT_TOKENS + exact("Screenshot of the desktop") + 2 * MEDIA_TOKENS
    )
  })

  it("an error given as JSON is sent as JSON", () => {
    const value = { code: "ENOENT", path: "/work/x" }
    const message: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c", toolName: "bash", output: { type: "error-json", value } }]
    }
    assert.strictEqual(counter.message(message), TOOL_RESULT_TOKENS + exact(JSON.stringify(value)))
  })

  it("tool definitions: name, description and JSON schema", () => {
    const tool = {
      name: "bash",
      description: "Runs a shell command in the sandbox.",
      inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] }
    }
    assert.strictEqual(
      counter.tools([tool]),
      TOOL_DEFINITION_TOKENS + exact("bash") + exact(tool.description) + exact(JSON.stringify(tool.inputSchema))
    )
    assert.strictEqual(counter.tools([]), 0)
  })

  it("cl100k_base models are counted with cl100k_base", () => {
    const message: ModelMessage = { role: "user", content: fixtures.french }
    assert.strictEqual(counterFor("cl100k_base").message(message), MESSAGE_TOKENS + cl100k.countTokens(fixtures.french))
  })
})

describe("bounded counting", () => {
  const message: ModelMessage = {
    role: "user",
    content: [{ type: "text", text: fixtures.english }, { type: "text", text: fixtures.code }]
  }
  const total = MESSAGE_TOKENS + exact(fixtures.english) + exact(fixtures.code)

  it("stops at the limit, and a cached count answers any later limit", () => {
    const fresh = counterFor("o200k_base")
    const copy = structuredClone(message)
    assert.isFalse(fresh.messageWithin(copy, total - 1))
    assert.strictEqual(fresh.messageWithin(copy, total), total)
    assert.isFalse(fresh.messageWithin(copy, total - 1))
    assert.strictEqual(fresh.message(copy), total)
  })

  it("counts a part once: a second count of the same message does not tokenize again", () => {
    const big: ModelMessage = { role: "user", content: [{ type: "text", text: `${fixtures.english} `.repeat(4_000) }] }
    let start = performance.now()
    const first = counter.message(big)
    const cold = performance.now() - start
    start = performance.now()
    assert.strictEqual(counter.message(big), first)
    assert.isBelow(performance.now() - start, cold / 10)
  })

  it("counts a whole input: system prompt, tool definitions, messages", () => {
    const tools = [{ name: "bash", description: "Runs a command.", inputSchema: { type: "object" } }]
    assert.strictEqual(
      counter.input(fixtures.english, tools, [message, message]),
      counter.system(fixtures.english) + counter.tools(tools) + 2 * total
    )
  })
})
