import type { RunEvent } from "../../agent/RunEvent.ts"
import type { RunSummary, Usage } from "../../agent/RunSummary.ts"
import { argumentsOf } from "../toolArguments.ts"

/** What one run event adds to the answer's message, in OpenAI's delta form. */
export interface Delta {
  readonly role?: "assistant"
  readonly content?: string
  readonly reasoning_content?: string
  readonly tool_calls?: ReadonlyArray<ToolCallDelta>
}

export interface ToolCallDelta {
  readonly index: number
  readonly id?: string
  readonly type?: "function"
  readonly function: { readonly name?: string; readonly arguments: string }
}

/** parley's finish reasons in OpenAI's words; a limit of parley's cut the answer short, as `length` says. */
export const finishReasonOf = (summary: RunSummary, calledClientTools: boolean): string => {
  if (calledClientTools) return "tool_calls"
  switch (summary.finishReason) {
    case "length":
    case "step-limit":
    case "timeout":
    case "budget":
      return "length"
    case "content-filter":
      return "content_filter"
    default:
      return "stop"
  }
}

export const usageOf = (usage: Usage) => {
  const prompt = usage.inputTokens ?? 0
  const completion = usage.outputTokens ?? 0
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.totalTokens ?? prompt + completion,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 }
  }
}

/**
 * The run's events as Chat Completions deltas (docs/DESIGN.md §14): text
 * and reasoning as they come, the text of later steps after a blank line,
 * the client's tool calls as `tool_calls` numbered in call order. parley's
 * own tool calls ran on the server and are not the client's: they are left
 * out. One per answer: it numbers the calls and remembers the steps.
 */
export class CompletionDeltas {
  private readonly calls = new Map<string, { readonly index: number; streamed: boolean }>()
  private wroteText = false
  private separate = false

  get calledClientTools(): boolean {
    return this.calls.size > 0
  }

  delta(chunk: RunEvent): Delta | undefined {
    switch (chunk.type) {
      case "start":
        return { role: "assistant", content: "" }
      case "start-step":
        this.separate = this.wroteText
        return undefined
      case "text-delta": {
        const content = this.text(chunk.delta)
        return content === undefined ? undefined : { content }
      }
      case "reasoning-delta":
        return chunk.delta === "" ? undefined : { reasoning_content: chunk.delta }
      case "tool-input-start":
        return chunk.provenance === "client" ? this.open(chunk.toolCallId, chunk.toolName, "") : undefined
      case "tool-input-delta": {
        const index = this.toolInput(chunk.toolCallId, chunk.inputTextDelta)
        return index === undefined
          ? undefined
          : { tool_calls: [{ index, function: { arguments: chunk.inputTextDelta } }] }
      }
      case "tool-call": {
        if (chunk.provenance !== "client" || chunk.errorText !== undefined) return undefined
        const call = this.calls.get(chunk.toolCallId)
        // A provider that gives a call whole streams no input: its arguments go at once.
        if (call === undefined) return this.open(chunk.toolCallId, chunk.toolName, argumentsOf(chunk.input))
        if (call.streamed) return undefined
        call.streamed = true
        return { tool_calls: [{ index: call.index, function: { arguments: argumentsOf(chunk.input) } }] }
      }
      default:
        return undefined
    }
  }

  /** A text delta's `content`: a later step's text after a blank line; `undefined` for an empty one. */
  text(delta: string): string | undefined {
    if (delta === "") return undefined
    const content = this.separate ? `\n\n${delta}` : delta
    this.separate = false
    this.wroteText = true
    return content
  }

  /** The index of the client's call that a tool-input delta continues; `undefined` when it adds nothing. */
  toolInput(toolCallId: string, delta: string): number | undefined {
    const call = this.calls.get(toolCallId)
    if (call === undefined || delta === "") return undefined
    call.streamed = true
    return call.index
  }

  private open(id: string, name: string, args: string): Delta {
    const index = this.calls.size
    this.calls.set(id, { index, streamed: args !== "" })
    return { tool_calls: [{ index, id, type: "function", function: { name, arguments: args } }] }
  }
}
