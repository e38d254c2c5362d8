import type { RunEvent } from "../../agent/RunEvent.ts"
import type { RunSummary, Usage } from "../../agent/RunSummary.ts"
import { hostedToolOf } from "../hostedTools.ts"
import { argumentsOf } from "../toolArguments.ts"

/** A content block as `content_block_start` opens it. */
type BlockStart =
  | { readonly type: "text"; readonly text: "" }
  | { readonly type: "thinking"; readonly thinking: ""; readonly signature: "" }
  | { readonly type: "redacted_thinking"; readonly data: string }
  | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly input: {} }
  | {
    readonly type: "mcp_tool_use"
    readonly id: string
    readonly name: string
    readonly server_name: string
    readonly input: unknown
  }
  | {
    readonly type: "mcp_tool_result"
    readonly tool_use_id: string
    readonly is_error: boolean
    readonly content: ReadonlyArray<{ readonly type: "text"; readonly text: string }>
  }

type BlockDelta =
  | { readonly type: "text_delta"; readonly text: string }
  | { readonly type: "thinking_delta"; readonly thinking: string }
  | { readonly type: "signature_delta"; readonly signature: string }
  | { readonly type: "input_json_delta"; readonly partial_json: string }

/** What one run event adds to the answer's content, as Anthropic's stream events. */
export type BlockEvent =
  | { readonly type: "content_block_start"; readonly index: number; readonly content_block: BlockStart }
  | { readonly type: "content_block_delta"; readonly index: number; readonly delta: BlockDelta }
  | { readonly type: "content_block_stop"; readonly index: number }

const mcpResult = (toolUseId: string, isError: boolean, text: string): BlockStart => ({
  type: "mcp_tool_result",
  tool_use_id: toolUseId,
  is_error: isError,
  content: [{ type: "text", text }]
})

const anthropicMeta = (chunk: { readonly providerMetadata?: unknown }, field: "signature" | "redactedData") => {
  const value = (chunk.providerMetadata as { anthropic?: Record<string, unknown> } | undefined)?.anthropic?.[field]
  return typeof value === "string" && value !== "" ? value : undefined
}

/**
 * parley's finish reasons in Anthropic's words (docs/DESIGN.md §14): a call
 * of the client's tools is `tool_use`; parley's step and time limits are
 * `pause_turn` (the turn may go on in a next request), its budget and the
 * model's own output limit `max_tokens`.
 */
export const stopReasonOf = (summary: RunSummary, calledClientTools: boolean): string => {
  if (calledClientTools) return "tool_use"
  switch (summary.finishReason) {
    case "length":
    case "budget":
      return "max_tokens"
    case "step-limit":
    case "timeout":
      return "pause_turn"
    case "content-filter":
      return "refusal"
    default:
      return "end_turn"
  }
}

/** Anthropic's usage: its `input_tokens` leaves out the tokens read from the cache. */
export const usageOf = (usage: Usage) => {
  const cached = usage.cachedInputTokens ?? 0
  return {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - cached),
    output_tokens: usage.outputTokens ?? 0,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0
  }
}

/**
 * The run's events as Anthropic's content block events (docs/DESIGN.md
 * §14): text, thinking (with its signature where the provider gives one) and
 * the client's tool calls as `tool_use` blocks, numbered in order. parley's
 * own tool calls ran on the server and are not the client's: they are left
 * out, unless the request asked for `mcp_servers` (`hosted`), where each is
 * an `mcp_tool_use` block, whole, and its outcome an `mcp_tool_result`
 * block (a call the loop refused is one with `is_error`). One per answer:
 * it numbers the blocks.
 */
export class MessageEvents {
  private readonly hosted: boolean
  // The server tool calls shown, whose results follow.
  private readonly shown = new Set<string>()
  // Open blocks by what opened them: `t`, `r` or `c` and a text, reasoning or tool call id.
  private readonly open = new Map<string, { readonly index: number; streamed: boolean }>()
  private next = 0
  private calls = 0

  constructor(hosted: boolean) {
    this.hosted = hosted
  }

  get calledClientTools(): boolean {
    return this.calls > 0
  }

  /** The index of the open text block a text delta continues: its stream writes the delta event itself (./encode.ts). */
  openText(id: string): number | undefined {
    return this.open.get(`t${id}`)?.index
  }

  events(chunk: RunEvent): ReadonlyArray<BlockEvent> {
    switch (chunk.type) {
      case "text-delta":
        return chunk.delta === ""
          ? []
          : this.delta(`t${chunk.id}`, { type: "text", text: "" }, { type: "text_delta", text: chunk.delta })
      case "reasoning-start": {
        const data = anthropicMeta(chunk, "redactedData")
        if (data === undefined) return []
        return this.whole({ type: "redacted_thinking", data })
      }
      case "reasoning-delta": {
        const thinking: BlockStart = { type: "thinking", thinking: "", signature: "" }
        const text = chunk.delta === ""
          ? []
          : this.delta(`r${chunk.id}`, thinking, { type: "thinking_delta", thinking: chunk.delta })
        const signature = anthropicMeta(chunk, "signature")
        return signature === undefined
          ? text
          : [...text, ...this.delta(`r${chunk.id}`, thinking, { type: "signature_delta", signature })]
      }
      case "text-end":
        return this.close(`t${chunk.id}`)
      case "reasoning-end":
        return this.close(`r${chunk.id}`)
      case "tool-input-start":
        return chunk.provenance === "client" ? this.openCall(chunk.toolCallId, chunk.toolName) : []
      case "tool-input-delta": {
        const call = this.open.get(`c${chunk.toolCallId}`)
        if (call === undefined || chunk.inputTextDelta === "") return []
        call.streamed = true
        return [{
          type: "content_block_delta",
          index: call.index,
          delta: { type: "input_json_delta", partial_json: chunk.inputTextDelta }
        }]
      }
      case "tool-call": {
        if (chunk.errorText !== undefined) {
          return chunk.provenance === "client" ? [] : [
            ...this.serverCall(chunk.toolCallId, chunk.toolName, chunk.input),
            ...this.serverResult(chunk.toolCallId, true, chunk.errorText)
          ]
        }
        if (chunk.provenance !== "client") return this.serverCall(chunk.toolCallId, chunk.toolName, chunk.input)
        // A provider that gives a call whole streams no input: its arguments go at once.
        const opened = this.open.has(`c${chunk.toolCallId}`) ? [] : this.openCall(chunk.toolCallId, chunk.toolName)
        const call = this.open.get(`c${chunk.toolCallId}`)!
        const input: ReadonlyArray<BlockEvent> = call.streamed
          ? []
          : [{
            type: "content_block_delta",
            index: call.index,
            delta: { type: "input_json_delta", partial_json: argumentsOf(chunk.input) }
          }]
        return [...opened, ...input, ...this.close(`c${chunk.toolCallId}`)]
      }
      case "tool-result":
        return this.serverResult(
          chunk.toolCallId,
          false,
          typeof chunk.output === "string" ? chunk.output : JSON.stringify(chunk.output)
        )
      case "tool-error":
        return this.serverResult(chunk.toolCallId, true, chunk.errorText)
      case "finish":
        return [...this.open.keys()].flatMap((id) => this.close(id))
      default:
        return []
    }
  }

  private delta(id: string, start: BlockStart, delta: BlockDelta): ReadonlyArray<BlockEvent> {
    const found = this.open.get(id)
    if (found !== undefined) return [{ type: "content_block_delta", index: found.index, delta }]
    const index = this.next++
    this.open.set(id, { index, streamed: true })
    return [{ type: "content_block_start", index, content_block: start }, { type: "content_block_delta", index, delta }]
  }

  private openCall(id: string, name: string): ReadonlyArray<BlockEvent> {
    const index = this.next++
    this.calls++
    this.open.set(`c${id}`, { index, streamed: false })
    return [{ type: "content_block_start", index, content_block: { type: "tool_use", id, name, input: {} } }]
  }

  private whole(start: BlockStart): ReadonlyArray<BlockEvent> {
    const index = this.next++
    return [{ type: "content_block_start", index, content_block: start }, { type: "content_block_stop", index }]
  }

  private serverCall(id: string, toolName: string, input: unknown): ReadonlyArray<BlockEvent> {
    if (!this.hosted) return []
    this.shown.add(id)
    const { name, server } = hostedToolOf(toolName)
    return this.whole({ type: "mcp_tool_use", id, name, server_name: server, input: input ?? {} })
  }

  private serverResult(id: string, isError: boolean, text: string): ReadonlyArray<BlockEvent> {
    if (!this.shown.delete(id)) return []
    return this.whole(mcpResult(id, isError, text))
  }

  private close(id: string): ReadonlyArray<BlockEvent> {
    const found = this.open.get(id)
    if (found === undefined) return []
    this.open.delete(id)
    return [{ type: "content_block_stop", index: found.index }]
  }
}
