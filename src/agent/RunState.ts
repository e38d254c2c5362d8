import type { SharedV4ProviderMetadata } from "@ai-sdk/provider"
import { type FinishReason, generateId, type UIMessageChunk } from "ai"
import { UsageTotals } from "./usage.ts"

export type Emit = (chunk: UIMessageChunk) => void

export type ProviderMetadata = SharedV4ProviderMetadata | undefined

/** A text or reasoning block as the model history keeps it. */
export interface BlockContent {
  readonly type: "text" | "reasoning"
  text: string
  providerMetadata: ProviderMetadata
}

/** A text or reasoning block the model opened and has not closed yet. */
export interface OpenBlock {
  readonly uiId: string
  readonly content: BlockContent
}

/** A tool call whose arguments are still streaming. */
export interface PartialCall {
  readonly toolName: string
  readonly dynamic: boolean | undefined
  text: string
}

/** How a run ended, as the `finish` chunk's `messageMetadata` says it (DESIGN §3.4). */
export type FinishMetadata =
  | { readonly finished: true }
  | { readonly finished: false; readonly finishReason: "step-limit" | "timeout" }

// Keeps an id unique within the run; providers restart their block ids ("0") every call.
const reserveId = (used: Set<string>, id: string): string => {
  if (!used.has(id)) {
    used.add(id)
    return id
  }
  let fresh = generateId()
  while (used.has(fresh)) fresh = generateId()
  used.add(fresh)
  return fresh
}

/**
 * What one run has sent so far, across steps: enough to end the chunk stream
 * validly whenever a limit cuts it short.
 */
export class RunState {
  readonly messageId = generateId()
  readonly usage = new UsageTotals()
  /** The last step's finish reason. */
  finishReason: FinishReason = "other"
  /** Whether any chunk was sent; until then a failure is a plain HTTP error. */
  started = false
  readonly openText = new Map<string, OpenBlock>()
  readonly openReasoning = new Map<string, OpenBlock>()
  readonly partialCalls = new Map<string, PartialCall>()
  /** Tool calls whose input was sent but whose output was not (yet). */
  readonly pendingOutputs = new Map<string, ProviderMetadata>()
  private stepOpen = false
  private readonly textIds = new Set<string>()
  private readonly reasoningIds = new Set<string>()

  readonly emit: Emit

  constructor(emit: Emit) {
    this.emit = emit
  }

  reserveTextId(id: string): string {
    return reserveId(this.textIds, id)
  }

  reserveReasoningId(id: string): string {
    return reserveId(this.reasoningIds, id)
  }

  beginStep(): void {
    if (!this.started) {
      this.started = true
      this.emit({ type: "start", messageId: this.messageId })
    }
    this.stepOpen = true
    this.emit({ type: "start-step" })
  }

  endStep(): void {
    this.stepOpen = false
    this.emit({ type: "finish-step" })
  }

  /**
   * Completes every part a limit interrupted: open blocks end, streaming and
   * running tool calls end in an error, so the message stays a valid history.
   */
  closeInterrupted(errorText: string): void {
    for (const block of this.openText.values()) this.emit({ type: "text-end", id: block.uiId })
    for (const block of this.openReasoning.values()) this.emit({ type: "reasoning-end", id: block.uiId })
    for (const [toolCallId, partial] of this.partialCalls) {
      this.emit({
        type: "tool-input-error",
        toolCallId,
        toolName: partial.toolName,
        input: partial.text,
        ...(partial.dynamic === undefined ? {} : { dynamic: partial.dynamic }),
        errorText
      })
    }
    for (const [toolCallId, providerMetadata] of this.pendingOutputs) {
      this.emit({
        type: "tool-output-error",
        toolCallId,
        errorText,
        ...(providerMetadata === undefined ? {} : { providerMetadata }),
        dynamic: true
      })
    }
    this.openText.clear()
    this.openReasoning.clear()
    this.partialCalls.clear()
    this.pendingOutputs.clear()
    if (this.stepOpen) this.endStep()
  }

  finish(metadata: FinishMetadata): void {
    this.emit({
      type: "finish",
      finishReason: this.finishReason,
      messageMetadata: { ...metadata, usage: this.usage.toUsage() }
    })
  }
}
