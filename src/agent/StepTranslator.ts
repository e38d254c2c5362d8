import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"
import type { FinishReason } from "ai"
import type { ApprovalGate } from "./AgentRun.ts"
import type { BlockContent } from "./OpenBlocks.ts"
import type { RunState } from "./RunState.ts"
import { type ParsedToolCall, parseToolCall } from "./toolInput.ts"
import type { ToolSet } from "./toolSet.ts"

/** One piece of what the model said in a step, in stream order (for the history). */
export type StepContent = BlockContent | { readonly type: "tool-call"; readonly call: ParsedToolCall }

/**
 * Translates one model call's stream parts into run events (`RunEvent`),
 * which the `ui` door writes exactly as `streamText(...).toUIMessageStream()`
 * does, and records the step for the model history. Hot path: one object per
 * event, no schema work except on a complete tool call.
 */
export class StepTranslator {
  readonly content: Array<StepContent> = []
  readonly calls: Array<ParsedToolCall> = []
  /** Ids of the step's calls that wait for a person's approval instead of running (docs/DESIGN.md §10). */
  readonly awaiting = new Set<string>()
  /** The step's calls that need approval where none can be asked, with what the model is told (`ApprovalGate.refusal`). */
  readonly refused = new Map<string, string>()
  /** Whether the model called a tool the client runs: the run ends after this step. */
  forClient = false
  finishReason: FinishReason = "other"

  private readonly state: RunState
  private readonly tools: ToolSet
  private readonly approval: ApprovalGate | undefined

  constructor(state: RunState, tools: ToolSet, approval?: ApprovalGate) {
    this.state = state
    this.tools = tools
    this.approval = approval
  }

  push(part: LanguageModelV4StreamPart): void {
    switch (part.type) {
      case "text-delta":
        return this.state.textDelta(part.id, part.delta, part.providerMetadata)
      case "reasoning-delta":
        return this.state.reasoningDelta(part.id, part.delta, part.providerMetadata)
      case "tool-input-delta":
        return this.state.toolInputDelta(part.id, part.delta)
      case "text-start":
        return void this.content.push(this.state.openBlock("text", part.id, part.providerMetadata))
      case "reasoning-start":
        return void this.content.push(this.state.openBlock("reasoning", part.id, part.providerMetadata))
      case "text-end":
        return this.state.closeBlock("text", part.id, part.providerMetadata, part.citations)
      case "reasoning-end":
        return this.state.closeBlock("reasoning", part.id, part.providerMetadata)
      case "tool-input-start": {
        // As streamText: a tool in the set is dynamic; one the model invented is not, unless the provider says so.
        const client = this.tools.client.has(part.toolName)
        return this.state.beginToolInput(
          part,
          client || this.tools.byName.has(part.toolName) || (part.dynamic ?? false),
          client
        )
      }
      case "tool-call": {
        const call = parseToolCall(part, this.tools)
        this.content.push({ type: "tool-call", call })
        this.calls.push(call)
        this.state.toolCall(call)
        if (call.valid && call.client === true) this.forClient = true
        else if (call.valid && call.providerExecuted !== true && this.approval?.requires(call.toolName) === true) {
          const refusal = this.approval.refusal
          if (refusal !== undefined) return void this.refused.set(call.toolCallId, refusal(call.toolName))
          // As streamText: the approval request follows the call's input at once.
          this.awaiting.add(call.toolCallId)
          this.state.approvalRequest(call.toolCallId, this.approval.requestId(call))
        }
        return
      }
      case "finish":
        this.finishReason = part.finishReason.unified
        return this.state.stepFinished(this.finishReason, part.usage)
      default:
        // stream-start, response-metadata, tool-input-end, raw, ping: nothing for the client.
        // Sources, files, custom content and provider-executed results: parley offers no provider tools
        // and streams text answers, so they are not forwarded.
        return
    }
  }
}
