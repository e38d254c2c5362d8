import type { UIMessageChunk } from "ai"
import { describe, expect, it } from "vitest"
import type { RunSummary } from "../../../src/agent/RunSummary.ts"
import { MessageEvents, stopReasonOf, usageOf } from "../../../src/protocols/messages/events.ts"

const summary = (finishReason: RunSummary["finishReason"]): RunSummary => ({
  finished: true,
  finishReason,
  usage: {}
})

describe("the Messages door's events (docs/DESIGN.md §14)", () => {
  it("words parley's finish reasons as Anthropic's stop reasons", () => {
    expect(stopReasonOf(summary("stop"), false)).toBe("end_turn")
    expect(stopReasonOf(summary("stop"), true)).toBe("tool_use")
    expect(stopReasonOf(summary("length"), false)).toBe("max_tokens")
    expect(stopReasonOf(summary("budget"), false)).toBe("max_tokens")
    expect(stopReasonOf(summary("step-limit"), false)).toBe("pause_turn")
    expect(stopReasonOf(summary("timeout"), false)).toBe("pause_turn")
    expect(stopReasonOf(summary("content-filter"), false)).toBe("refusal")
  })

  it("leaves the cached reads out of input_tokens, as Anthropic counts", () => {
    expect(usageOf({ inputTokens: 100, outputTokens: 7, cachedInputTokens: 60 })).toEqual({
      input_tokens: 40,
      output_tokens: 7,
      cache_read_input_tokens: 60,
      cache_creation_input_tokens: 0
    })
  })

  it("numbers the blocks, shows redacted thinking and the client's calls, and never parley's own", () => {
    const events = new MessageEvents(new Set(["weather"]), false)
    const chunks: Array<UIMessageChunk> = [
      { type: "reasoning-start", id: "r0", providerMetadata: { anthropic: { redactedData: "xyz" } } },
      { type: "reasoning-end", id: "r0" },
      { type: "text-start", id: "t0" },
      { type: "text-delta", id: "t0", delta: "Let me check." },
      { type: "tool-input-start", toolCallId: "c1", toolName: "echo", dynamic: true },
      { type: "tool-input-available", toolCallId: "c1", toolName: "echo", input: { text: "x" }, dynamic: true },
      { type: "text-end", id: "t0" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Now the weather." },
      { type: "tool-input-available", toolCallId: "c2", toolName: "weather", input: { city: "Oslo" }, dynamic: true },
      { type: "finish", messageMetadata: summary("tool-calls") }
    ]
    const all = chunks.flatMap((chunk) => events.events(chunk))
    const starts = all.filter((event) => event.type === "content_block_start")
    expect(starts.map((event) => [event.index, event.content_block.type])).toEqual([
      [0, "redacted_thinking"],
      [1, "text"],
      [2, "text"],
      [3, "tool_use"]
    ])
    expect(all).toContainEqual({
      type: "content_block_delta",
      index: 3,
      delta: { type: "input_json_delta", partial_json: JSON.stringify({ city: "Oslo" }) }
    })
    // Every block opened is closed, once.
    const stops = all.filter((event) => event.type === "content_block_stop").map((event) => event.index)
    expect(stops.sort()).toEqual([0, 1, 2, 3])
    expect(events.calledClientTools).toBe(true)
    expect(JSON.stringify(all)).not.toContain("echo")
  })

  it("with mcp_servers asked, shows parley's calls whole as mcp_tool_use and their outcomes as mcp_tool_result", () => {
    const events = new MessageEvents(new Set(), true)
    const chunks: Array<UIMessageChunk> = [
      { type: "tool-input-start", toolCallId: "c1", toolName: "docs__search", dynamic: true },
      { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: "{\"q\":" },
      { type: "tool-input-available", toolCallId: "c1", toolName: "docs__search", input: { q: "x" }, dynamic: true },
      { type: "tool-input-available", toolCallId: "c2", toolName: "echo", input: { text: "y" }, dynamic: true },
      { type: "tool-output-available", toolCallId: "c1", output: { hits: 2 }, dynamic: true },
      { type: "tool-output-error", toolCallId: "c2", errorText: "needs approval", dynamic: true },
      {
        type: "tool-input-error",
        toolCallId: "c3",
        toolName: "bash",
        input: {},
        errorText: "unavailable",
        dynamic: true
      },
      // An output of a call never shown (none here) opens nothing.
      { type: "tool-output-available", toolCallId: "c9", output: "stray", dynamic: true }
    ]
    const all = chunks.flatMap((chunk) => events.events(chunk))
    expect(all.filter((event) => event.type === "content_block_delta")).toEqual([])
    expect(all.filter((event) => event.type === "content_block_start").map((event) => event.content_block)).toEqual([
      { type: "mcp_tool_use", id: "c1", name: "search", server_name: "docs", input: { q: "x" } },
      { type: "mcp_tool_use", id: "c2", name: "echo", server_name: "parley", input: { text: "y" } },
      {
        type: "mcp_tool_result",
        tool_use_id: "c1",
        is_error: false,
        content: [{ type: "text", text: "{\"hits\":2}" }]
      },
      {
        type: "mcp_tool_result",
        tool_use_id: "c2",
        is_error: true,
        content: [{ type: "text", text: "needs approval" }]
      },
      { type: "mcp_tool_use", id: "c3", name: "bash", server_name: "parley", input: {} },
      { type: "mcp_tool_result", tool_use_id: "c3", is_error: true, content: [{ type: "text", text: "unavailable" }] }
    ])
    expect(all.filter((event) => event.type === "content_block_stop").map((event) => event.index)).toEqual([
      0,
      1,
      2,
      3,
      4,
      5
    ])
    expect(events.calledClientTools).toBe(false)
  })
})
