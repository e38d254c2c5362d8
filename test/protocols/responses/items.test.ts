import { describe, expect, it } from "vitest"
import type { RunEvent } from "../../../src/agent/RunEvent.ts"
import type { RunSummary } from "../../../src/agent/RunSummary.ts"
import { ResponseItems } from "../../../src/protocols/responses/items.ts"
import { outcomeOf, usageOf } from "../../../src/protocols/responses/response.ts"
import { inputStart, toolCall } from "../runEvents.ts"

const summary = (finishReason: RunSummary["finishReason"]): RunSummary => ({ finished: true, finishReason, usage: {} })

describe("the Responses door's items (docs/DESIGN.md §14)", () => {
  it("words parley's finish reasons as the response's status and incomplete reason", () => {
    expect(outcomeOf(summary("stop"), false)).toEqual({ status: "completed", incomplete_details: null })
    expect(outcomeOf(summary("length"), true)).toEqual({ status: "completed", incomplete_details: null })
    for (const reason of ["length", "budget", "step-limit", "timeout"] as const) {
      expect(outcomeOf(summary(reason), false)).toEqual({
        status: "incomplete",
        incomplete_details: { reason: "max_output_tokens" }
      })
    }
    expect(outcomeOf(summary("content-filter"), false).incomplete_details).toEqual({ reason: "content_filter" })
  })

  it("counts usage as OpenAI's Responses does", () => {
    expect(usageOf({ inputTokens: 100, outputTokens: 7, cachedInputTokens: 60, reasoningTokens: 3 })).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 60 },
      output_tokens: 7,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 107
    })
  })

  const chunks: Array<RunEvent> = [
    { type: "reasoning-start", id: "r0" },
    { type: "reasoning-delta", id: "r0", delta: "Think." },
    { type: "reasoning-delta", id: "r0", delta: "", providerMetadata: { anthropic: { signature: "sig" } } },
    { type: "reasoning-end", id: "r0" },
    { type: "text-start", id: "t0" },
    { type: "text-delta", id: "t0", delta: "Let me check." },
    inputStart("c1", "echo", "server"),
    toolCall("c1", "echo", { text: "x" }, "server"),
    { type: "text-end", id: "t0" },
    inputStart("c2", "weather", "client"),
    { type: "tool-input-delta", toolCallId: "c2", inputTextDelta: `{"city":` },
    { type: "tool-input-delta", toolCallId: "c2", inputTextDelta: `"Oslo"}` },
    toolCall("c2", "weather", { city: "Oslo" }, "client"),
    { type: "finish", finishReason: "tool-calls", summary: summary("tool-calls") }
  ]

  // An event as the items give it: its frame, up to the sequence number the stream writes.
  const eventOf = (frame: string): Record<string, unknown> & { readonly type: string } => {
    const [name, data] = frame.split("\n")
    const event = JSON.parse(`${data!.slice("data: ".length)}0}`)
    expect(name).toBe(`event: ${event.type}`)
    return event
  }

  it("numbers the items, keeps the client's calls and never parley's own, each opened item done once", () => {
    const items = new ResponseItems("abc", true)
    const events = chunks.flatMap((chunk) => items.events(chunk).map(eventOf))
    const added = events.filter((event) => event.type === "response.output_item.added")
    const done = events.filter((event) => event.type === "response.output_item.done")
    expect(added.map((event) => [event.output_index, (event.item as { type: string }).type])).toEqual([
      [0, "reasoning"],
      [1, "message"],
      [2, "function_call"]
    ])
    expect(done.map((event) => event.output_index).sort()).toEqual([0, 1, 2])
    expect(items.output).toEqual([
      {
        id: "rs_abc_0",
        type: "reasoning",
        summary: [{ type: "summary_text", text: "Think." }],
        encrypted_content: "parley.anthropic.sig"
      },
      {
        id: "msg_abc_1",
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Let me check.", annotations: [] }]
      },
      {
        id: "fc_abc_2",
        type: "function_call",
        status: "completed",
        call_id: "c2",
        name: "weather",
        arguments: `{"city":"Oslo"}`
      }
    ])
    expect(events.filter((event) => event.type === "response.function_call_arguments.delta")).toHaveLength(2)
    expect(items.outputJson.map((json) => JSON.parse(json))).toEqual(items.output)
    expect(items.calledClientTools).toBe(true)
    expect(JSON.stringify(events)).not.toContain("echo")
  })

  it("leaves encrypted_content out unless include asked for it", () => {
    const items = new ResponseItems("abc", false)
    for (const chunk of chunks) items.events(chunk)
    expect(items.output[0]).not.toHaveProperty("encrypted_content")
  })
})
