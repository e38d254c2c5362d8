import { describe, expect, it } from "vitest"
import type { RunEvent } from "../../../src/agent/RunEvent.ts"
import type { RunSummary } from "../../../src/agent/RunSummary.ts"
import { MessageEvents, stopReasonOf, usageOf } from "../../../src/protocols/messages/events.ts"
import { inputStart, toolCall } from "../runEvents.ts"

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
    const events = new MessageEvents(false)
    const chunks: Array<RunEvent> = [
      { type: "reasoning-start", id: "r0", providerMetadata: { anthropic: { redactedData: "xyz" } } },
      { type: "reasoning-end", id: "r0" },
      { type: "text-start", id: "t0" },
      { type: "text-delta", id: "t0", delta: "Let me check." },
      inputStart("c1", "echo", "server"),
      toolCall("c1", "echo", { text: "x" }, "server"),
      { type: "text-end", id: "t0" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Now the weather." },
      toolCall("c2", "weather", { city: "Oslo" }, "client"),
      { type: "finish", finishReason: "tool-calls", summary: summary("tool-calls") }
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
    const events = new MessageEvents(true)
    const chunks: Array<RunEvent> = [
      inputStart("c1", "docs__search", "server"),
      { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: "{\"q\":" },
      toolCall("c1", "docs__search", { q: "x" }, "server"),
      toolCall("c2", "echo", { text: "y" }, "server"),
      { type: "tool-result", toolCallId: "c1", output: { hits: 2 } },
      { type: "tool-error", toolCallId: "c2", errorText: "needs approval" },
      {
        type: "tool-call",
        toolCallId: "c3",
        toolName: "bash",
        input: {},
        provenance: "server",
        errorText: "unavailable",
        dynamic: true
      },
      // An output of a call never shown (none here) opens nothing.
      { type: "tool-result", toolCallId: "c9", output: "stray" }
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
