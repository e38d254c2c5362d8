import { assert, describe, it } from "@effect/vitest"
import type { UIMessage } from "ai"
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base"
import * as o200k from "gpt-tokenizer/encoding/o200k_base"
import {
  counterFor,
  MEDIA_TOKENS,
  MESSAGE_TOKENS,
  TOOL_CALL_TOKENS,
  TOOL_DEFINITION_TOKENS
} from "../../src/prune/tokenCount.ts"
import { fixtures } from "./fixtures.ts"

const options = { disallowedSpecial: new Set<string>() }
const exact = (text: string) => o200k.countTokens(text, options)
const counter = counterFor("o200k_base")
const screenshot = Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 7) % 256)).toString("base64")

describe("token counts of what the model is sent (o200k_base)", () => {
  it("a user message: framing plus its text", () => {
    const message: UIMessage = { id: "1", role: "user", parts: [{ type: "text", text: fixtures.english }] }
    assert.strictEqual(counter.message(message), MESSAGE_TOKENS + exact(fixtures.english))
  })

  it("the system prompt as one message; an empty one is not sent", () => {
    assert.strictEqual(counter.system(fixtures.english), MESSAGE_TOKENS + exact(fixtures.english))
    assert.strictEqual(counter.system(""), 0)
  })

  it("a tool step: name, input as JSON, output as sent, error text; files at a fixed cost; sources free", () => {
    const input = { command: "ls -la /work", timeout_ms: 5000 }
    const output = { stdout: "total 0\n", exit_code: 0 }
    const message: UIMessage = {
      id: "2",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "reasoning", text: "Let me look." },
        { type: "dynamic-tool", toolName: "bash", toolCallId: "c1", state: "output-available", input, output },
        { type: "tool-browser", toolCallId: "c2", state: "output-error", input: { url: "x" }, errorText: "timeout" },
        { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA" },
        { type: "source-url", sourceId: "s", url: "https://example.com/a/very/long/url" },
        { type: "step-start" },
        {
          type: "dynamic-tool",
          toolName: "bash",
          toolCallId: "c3",
          state: "output-available",
          input,
          output: "plain text out"
        },
        { type: "text", text: "Done." }
      ]
    }
    const expected = 2 * MESSAGE_TOKENS + // two steps, each its own assistant message
      exact("Let me look.") +
      TOOL_CALL_TOKENS + exact("bash") + exact(JSON.stringify(input)) + exact(JSON.stringify(output)) +
      TOOL_CALL_TOKENS + exact("browser") + exact(JSON.stringify({ url: "x" })) + exact("timeout") +
      MEDIA_TOKENS +
      TOOL_CALL_TOKENS + exact("bash") + exact(JSON.stringify(input)) + exact("plain text out") + // a string is sent as is
      exact("Done.")
    assert.strictEqual(counter.message(message), expected)
  })

  it("an image in a tool output costs the fixed media price, not its base64", () => {
    const content = [
      { type: "text", text: "Screenshot of the desktop" },
      { type: "image-data", data: screenshot, mediaType: "image/png" }
    ]
    const message: UIMessage = {
      id: "3",
      role: "assistant",
      parts: [{
        type: "dynamic-tool",
        toolName: "computer",
        toolCallId: "c",
        state: "output-available",
        input: { action: "screenshot" },
        output: { type: "content", value: content }
      }]
    }
    const withoutImage = JSON.stringify({ type: "content", value: [content[0], null] })
    assert.strictEqual(
      counter.message(message),
      MESSAGE_TOKENS + TOOL_CALL_TOKENS + exact("computer") + exact(JSON.stringify({ action: "screenshot" })) +
        exact(withoutImage) + MEDIA_TOKENS
    )
    const dataUrl: UIMessage = {
      id: "4",
      role: "assistant",
      parts: [{
        type: "dynamic-tool",
        toolName: "computer",
        toolCallId: "c",
        state: "output-available",
        input: {},
        output: `data:image/png;base64,${screenshot}`
      }]
    }
    assert.strictEqual(
      counter.message(dataUrl),
      MESSAGE_TOKENS + TOOL_CALL_TOKENS + exact("computer") + exact("{}") + MEDIA_TOKENS
    )
  })

  it("a steering message inside a reply is sent as its own user message", () => {
    const message: UIMessage = {
      id: "5",
      role: "assistant",
      parts: [
        { type: "text", text: "Working on it." },
        { type: "steering-message", id: "s", parts: [{ type: "text", text: "Use Python." }] }
      ]
    } as UIMessage
    assert.strictEqual(counter.message(message), 2 * MESSAGE_TOKENS + exact("Working on it.") + exact("Use Python."))
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
    const message: UIMessage = { id: "6", role: "user", parts: [{ type: "text", text: fixtures.french }] }
    assert.strictEqual(counterFor("cl100k_base").message(message), MESSAGE_TOKENS + cl100k.countTokens(fixtures.french))
  })
})

describe("bounded counting", () => {
  const message: UIMessage = {
    id: "7",
    role: "user",
    parts: [{ type: "text", text: fixtures.english }, { type: "text", text: fixtures.code }]
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
    const big: UIMessage = {
      id: "8",
      role: "user",
      parts: [{ type: "text", text: `${fixtures.english} `.repeat(4_000) }]
    }
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
