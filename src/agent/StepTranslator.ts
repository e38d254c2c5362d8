import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"
import type { FinishReason } from "ai"
import type { BlockContent, OpenBlock, RunState } from "./RunState.ts"
import { type ParsedToolCall, parseToolCall } from "./toolInput.ts"
import type { ToolSet } from "./toolSet.ts"

/** One piece of what the model said in a step, in stream order (for the history). */
export type StepContent = BlockContent | { readonly type: "tool-call"; readonly call: ParsedToolCall }

/**
 * Translates one model call's stream parts into UI message chunks, exactly as
 * `streamText(...).toUIMessageStream()` does, and records the step for the
 * model history. Hot path: one object per chunk, no schema work except on a
 * complete tool call.
 */
export class StepTranslator {
  readonly content: Array<StepContent> = []
  readonly calls: Array<ParsedToolCall> = []
  finishReason: FinishReason = "other"

  private readonly state: RunState
  private readonly tools: ToolSet

  constructor(state: RunState, tools: ToolSet) {
    this.state = state
    this.tools = tools
  }

  push(part: LanguageModelV4StreamPart): void {
    const state = this.state
    switch (part.type) {
      case "text-delta": {
        const block = state.openText.get(part.id)
        if (block === undefined) return
        block.content.text += part.delta
        if (part.providerMetadata != null) {
          block.content.providerMetadata = part.providerMetadata
          state.emit({ type: "text-delta", id: block.uiId, delta: part.delta, providerMetadata: part.providerMetadata })
        } else if (part.delta.length > 0) {
          state.emit({ type: "text-delta", id: block.uiId, delta: part.delta })
        }
        return
      }
      case "reasoning-delta": {
        const block = state.openReasoning.get(part.id)
        if (block === undefined) return
        block.content.text += part.delta
        if (part.providerMetadata != null) {
          block.content.providerMetadata = part.providerMetadata
          state.emit({ type: "reasoning-delta", id: block.uiId, delta: part.delta, providerMetadata: part.providerMetadata })
        } else {
          state.emit({ type: "reasoning-delta", id: block.uiId, delta: part.delta })
        }
        return
      }
      case "tool-input-delta": {
        const partial = state.partialCalls.get(part.id)
        if (partial !== undefined) partial.text += part.delta
        state.emit({ type: "tool-input-delta", toolCallId: part.id, inputTextDelta: part.delta })
        return
      }
      case "text-start":
      case "reasoning-start": {
        const isText = part.type === "text-start"
        const content: BlockContent = {
          type: isText ? "text" : "reasoning",
          text: "",
          providerMetadata: part.providerMetadata
        }
        const uiId = isText ? state.reserveTextId(part.id) : state.reserveReasoningId(part.id)
        ;(isText ? state.openText : state.openReasoning).set(part.id, { uiId, content })
        this.content.push(content)
        state.emit({
          type: part.type,
          id: uiId,
          ...(part.providerMetadata == null ? {} : { providerMetadata: part.providerMetadata })
        })
        return
      }
      case "text-end":
      case "reasoning-end": {
        const open = part.type === "text-end" ? state.openText : state.openReasoning
        const block: OpenBlock | undefined = open.get(part.id)
        if (block === undefined) return
        open.delete(part.id)
        block.content.providerMetadata = part.providerMetadata ?? block.content.providerMetadata
        const citations = part.type === "text-end" ? part.citations : undefined
        state.emit({
          type: part.type,
          id: block.uiId,
          ...(citations == null ? {} : { citations }),
          ...(part.providerMetadata == null ? {} : { providerMetadata: part.providerMetadata })
        })
        return
      }
      case "tool-input-start": {
        const dynamic = this.tools.byName.has(part.toolName) ? true : part.dynamic
        state.partialCalls.set(part.id, { toolName: part.toolName, dynamic, text: "" })
        state.emit({
          type: "tool-input-start",
          toolCallId: part.id,
          toolName: part.toolName,
          ...(part.inputEncoding == null ? {} : { inputEncoding: part.inputEncoding }),
          ...(part.providerExecuted == null ? {} : { providerExecuted: part.providerExecuted }),
          ...(part.providerMetadata == null ? {} : { providerMetadata: part.providerMetadata }),
          ...(dynamic == null ? {} : { dynamic }),
          ...(part.title == null ? {} : { title: part.title })
        })
        return
      }
      case "tool-call":
        return this.toolCall(parseToolCall(part, this.tools))
      case "finish":
        this.finishReason = part.finishReason.unified
        state.finishReason = this.finishReason
        state.usage.add(part.usage)
        return
      default:
        // stream-start, response-metadata, tool-input-end, raw, ping: nothing for the client.
        // Sources, files, custom content and provider-executed results: parley offers no provider tools
        // and streams text answers, so they are not forwarded.
        return
    }
  }

  private toolCall(call: ParsedToolCall): void {
    const state = this.state
    state.partialCalls.delete(call.toolCallId)
    this.content.push({ type: "tool-call", call })
    this.calls.push(call)
    const common = {
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      ...(call.providerExecuted == null ? {} : { providerExecuted: call.providerExecuted }),
      ...(call.providerMetadata == null ? {} : { providerMetadata: call.providerMetadata }),
      dynamic: true
    }
    if (call.valid) {
      if (call.providerExecuted !== true) state.pendingOutputs.set(call.toolCallId, call.providerMetadata)
      state.emit({ type: "tool-input-available", ...common })
    } else {
      state.emit({ type: "tool-input-error", ...common, errorText: call.errorText })
    }
  }
}
