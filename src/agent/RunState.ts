import type { JSONValue, LanguageModelV4Citation, LanguageModelV4Usage } from "@ai-sdk/provider"
import { type FinishReason, generateId } from "ai"
import type { ProviderFailure } from "../models/ProviderFailure.ts"
import { type BlockContent, OpenBlocks, type ProviderMetadata } from "./OpenBlocks.ts"
import type { RunEvent, ToolProvenance } from "./RunEvent.ts"
import type { RunMeter } from "./RunMeter.ts"
import { isFinished, type LimitReason, type RunSummary } from "./RunSummary.ts"
import {
  provenanceOf,
  toolCallEvent,
  toolErrorEvent,
  type ToolInputStart,
  toolInputStartEvent,
  toolResultEvent
} from "./toolEvents.ts"
import type { ParsedToolCall, ValidToolCall } from "./toolInput.ts"
import { UsageTotals } from "./usage.ts"

export type Emit = (event: RunEvent) => void

/** A tool call whose arguments are still streaming. */
interface PartialCall {
  readonly toolName: string
  readonly dynamic: boolean
  readonly provenance: ToolProvenance
  text: string
}

/**
 * The event stream of one run, across steps (`RunEvent`). It alone emits,
 * and it keeps the stream a valid message whenever it ends: `start` first,
 * blocks and steps closed, every tool call answered by a result (an error if
 * a limit cut it short), `finish` last. Hot path: one object per event.
 */
export class RunState {
  private readonly messageId: string
  private readonly usage = new UsageTotals()
  /** The last step's finish reason. */
  private finishReason: FinishReason = "other"
  private begun = false
  private stepOpen = false
  private readonly blocks = new OpenBlocks()
  private readonly partialCalls = new Map<string, PartialCall>()
  /** Tool calls whose input was sent but whose output was not (yet). */
  private readonly pendingOutputs = new Map<string, ProviderMetadata>()
  private readonly emit: Emit
  private readonly meter: RunMeter | undefined
  /** Whoever takes the events takes `reset-step` (`RunSink.resetsStep`). */
  readonly resetsStep: boolean

  /**
   * `meter`: where the run counts its usage (the ledger's); `messageId`: the
   * assistant message the run continues (docs/DESIGN.md §10); default a new one.
   */
  constructor(emit: Emit, meter?: RunMeter, messageId: string = generateId(), resetsStep = false) {
    this.emit = emit
    this.meter = meter
    this.messageId = messageId
    this.resetsStep = resetsStep
  }

  /** Whether any event was sent; until then a failure is a plain HTTP error. */
  get started(): boolean {
    return this.begun
  }

  /** Sends `start`, once. */
  begin(): void {
    if (this.begun) return
    this.begun = true
    this.emit({ type: "start", messageId: this.messageId })
  }

  /** The step's first part; a step retried after `resetStep` keeps its `start-step`, as the client does. */
  beginStep(): void {
    this.begin()
    if (this.stepOpen) return
    this.stepOpen = true
    this.emit({ type: "start-step" })
  }

  /**
   * The step's model call broke off and another target answers it instead
   * (docs/DESIGN.md §15): its parts are dropped here and by the client,
   * which `reset-step` tells to remove what it received since `start-step`.
   * Usage the broken call reported stays counted: it was spent.
   */
  resetStep(): void {
    this.blocks.closeAll()
    this.partialCalls.clear()
    this.pendingOutputs.clear()
    this.emit({ type: "reset-step" })
  }

  endStep(): void {
    this.stepOpen = false
    this.emit({ type: "finish-step" })
  }

  /** Opens a text or reasoning block; the returned content collects its deltas for the history. */
  openBlock(type: "text" | "reasoning", id: string, providerMetadata: ProviderMetadata): BlockContent {
    const block = this.blocks.open(type, id, providerMetadata)
    this.emit({
      type: type === "text" ? "text-start" : "reasoning-start",
      id: block.uiId,
      ...(providerMetadata == null ? {} : { providerMetadata })
    })
    return block.content
  }

  textDelta(id: string, delta: string, providerMetadata: ProviderMetadata): void {
    const block = this.blocks.get("text", id)
    if (block === undefined) return
    block.content.text += delta
    if (providerMetadata != null) {
      block.content.providerMetadata = providerMetadata
      this.emit({ type: "text-delta", id: block.uiId, delta, providerMetadata })
    } else if (delta.length > 0) {
      this.emit({ type: "text-delta", id: block.uiId, delta })
    }
  }

  reasoningDelta(id: string, delta: string, providerMetadata: ProviderMetadata): void {
    const block = this.blocks.get("reasoning", id)
    if (block === undefined) return
    block.content.text += delta
    if (providerMetadata != null) {
      block.content.providerMetadata = providerMetadata
      this.emit({ type: "reasoning-delta", id: block.uiId, delta, providerMetadata })
    } else {
      this.emit({ type: "reasoning-delta", id: block.uiId, delta })
    }
  }

  closeBlock(
    type: "text" | "reasoning",
    id: string,
    providerMetadata: ProviderMetadata,
    citations?: Array<LanguageModelV4Citation>
  ): void {
    const block = this.blocks.close(type, id)
    if (block === undefined) return
    block.content.providerMetadata = providerMetadata ?? block.content.providerMetadata
    this.emit({
      type: type === "text" ? "text-end" : "reasoning-end",
      id: block.uiId,
      ...(citations == null ? {} : { citations }),
      ...(providerMetadata == null ? {} : { providerMetadata })
    })
  }

  /** `client`: the tool is the client's (docs/DESIGN.md §14). */
  beginToolInput(part: ToolInputStart, dynamic: boolean, client: boolean): void {
    const provenance = provenanceOf(client, part.providerExecuted)
    this.partialCalls.set(part.id, { toolName: part.toolName, dynamic, provenance, text: "" })
    this.emit(toolInputStartEvent(part, dynamic, provenance))
  }

  toolInputDelta(id: string, delta: string): void {
    const partial = this.partialCalls.get(id)
    if (partial !== undefined) partial.text += delta
    this.emit({ type: "tool-input-delta", toolCallId: id, inputTextDelta: delta })
  }

  /** A complete tool call: its input, or why it is invalid. A valid call the gateway runs now awaits its output. */
  toolCall(call: ParsedToolCall): void {
    this.partialCalls.delete(call.toolCallId)
    if (call.valid && call.client !== true && call.providerExecuted !== true) {
      this.pendingOutputs.set(call.toolCallId, call.providerMetadata)
    }
    this.emit(toolCallEvent(call))
  }

  /** A valid call that waits for a person's approval instead of running (docs/DESIGN.md §10). */
  approvalRequest(toolCallId: string, approvalId: string): void {
    this.pendingOutputs.delete(toolCallId)
    this.emit({ type: "tool-approval-request", approvalId, toolCallId })
  }

  /** A call its approver denied: it never ran. */
  toolDenied(toolCallId: string): void {
    this.emit({ type: "tool-output-denied", toolCallId })
  }

  /** An approved call whose input its tool now refuses: an error result, as `streamText` reports it. */
  toolInputRefused(toolCallId: string, errorText: string): void {
    this.emit({ type: "tool-error", toolCallId, errorText })
  }

  toolOutput(call: ValidToolCall, output: JSONValue): void {
    this.pendingOutputs.delete(call.toolCallId)
    this.emit(toolResultEvent(call, output))
  }

  toolError(call: ValidToolCall, errorText: string): void {
    this.pendingOutputs.delete(call.toolCallId)
    this.emit(toolErrorEvent(call.toolCallId, errorText, call.providerMetadata))
  }

  /** The model's `finish` part of a step: its reason becomes the run's, its usage is added. */
  stepFinished(finishReason: FinishReason, usage: LanguageModelV4Usage): void {
    this.finishReason = finishReason
    this.usage.add(usage)
    this.meter?.stepUsage(usage)
  }

  /**
   * Completes every part a limit interrupted: open blocks end, streaming and
   * running tool calls end in an error, so the message stays a valid
   * history. The interrupted step never finished, so neither did its reason.
   */
  interrupt(errorText: string): void {
    for (const block of this.blocks.closeAll()) {
      this.emit({ type: block.content.type === "text" ? "text-end" : "reasoning-end", id: block.uiId })
    }
    for (const [toolCallId, partial] of this.partialCalls) {
      this.emit({
        type: "tool-call",
        toolCallId,
        toolName: partial.toolName,
        input: partial.text,
        provenance: partial.provenance,
        dynamic: partial.dynamic,
        errorText
      })
    }
    for (const [toolCallId, providerMetadata] of this.pendingOutputs) {
      this.emit(toolErrorEvent(toolCallId, errorText, providerMetadata))
    }
    this.partialCalls.clear()
    this.pendingOutputs.clear()
    if (this.stepOpen) this.endStep()
    this.finishReason = "other"
  }

  /**
   * The provider failed after the stream began (docs/DESIGN.md §3.3): every
   * open part ends in an error first (a client such as `useChat` stops
   * reading at the `error` event that follows), and the run's reason becomes
   * `error`, as the AI SDK's; `finish` follows.
   */
  breakOff(partsErrorText: string, failure: ProviderFailure): void {
    this.interrupt(partsErrorText)
    this.finishReason = "error"
    this.emit({ type: "error", failure })
  }

  /**
   * Ends the stream with the `finish` event and its summary: the model's
   * last finish reason, or the limit that ended the run (docs/DESIGN.md §3.15).
   */
  finish(limit?: LimitReason): RunSummary {
    const finishReason = limit ?? this.finishReason
    const summary: RunSummary = { finished: isFinished(finishReason), finishReason, usage: this.usage.toUsage() }
    this.emit({ type: "finish", finishReason: this.finishReason, summary })
    return summary
  }
}
