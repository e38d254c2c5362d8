import type { JSONValue, LanguageModelV4Citation, SharedV4ProviderMetadata } from "@ai-sdk/provider"
import type { FinishReason } from "ai"
import type { ProviderFailure } from "../models/ProviderFailure.ts"
import type { RunSummary } from "./RunSummary.ts"

// The run's event vocabulary (docs/DESIGN.md §2, §14): what the agent emits and every door encodes and folds.
// Close to the AI SDK's `TextStreamPart`; the text, reasoning and tool-input events keep the field names
// of the AI SDK's UI message chunks, so the `ui` door writes them as they are (its bytes, and the spec's
// hot path, pay nothing for the layer).

type Meta = SharedV4ProviderMetadata

/** Who runs a tool call: the client (its own `tools`), parley (`server`), or the provider itself (`hosted`). */
export type ToolProvenance = "client" | "server" | "hosted"

/** A text or reasoning block opens, under an id no other block of its type had in the run. */
export interface BlockStartEvent {
  readonly type: "text-start" | "reasoning-start"
  readonly id: string
  readonly providerMetadata?: Meta
}

export interface BlockDeltaEvent {
  readonly type: "text-delta" | "reasoning-delta"
  readonly id: string
  readonly delta: string
  readonly providerMetadata?: Meta
}

export interface TextEndEvent {
  readonly type: "text-end"
  readonly id: string
  /** The model's citations for the text (the UI chunk's field, passed on as the provider gave them). */
  readonly citations?: Array<LanguageModelV4Citation>
  readonly providerMetadata?: Meta
}

export interface ReasoningEndEvent {
  readonly type: "reasoning-end"
  readonly id: string
  readonly providerMetadata?: Meta
}

/**
 * A tool call's arguments begin to stream, and who will run it (as its `tool-call` says). `dynamic`: a tool in the
 * run's set, as `streamText` says it.
 */
export interface ToolInputStartEvent {
  readonly type: "tool-input-start"
  readonly toolCallId: string
  readonly toolName: string
  readonly provenance: ToolProvenance
  readonly inputEncoding?: "json" | "text"
  readonly providerExecuted?: boolean
  readonly providerMetadata?: Meta
  readonly dynamic: boolean
  readonly title?: string
}

export interface ToolInputDeltaEvent {
  readonly type: "tool-input-delta"
  readonly toolCallId: string
  readonly inputTextDelta: string
}

/**
 * A complete tool call, and who runs it. `errorText`: the call is not valid
 * (an unknown tool, arguments its schema refuses, or arguments a limit cut
 * short while they streamed), so it never runs: the model is told why.
 */
export interface ToolCallEvent {
  readonly type: "tool-call"
  readonly toolCallId: string
  readonly toolName: string
  /** The arguments as JSON; the raw text when they are not JSON. */
  readonly input: unknown
  readonly provenance: ToolProvenance
  /** As the provider said it (`hosted` is its `true`). */
  readonly providerExecuted?: boolean
  readonly providerMetadata?: Meta
  readonly dynamic: boolean
  readonly errorText?: string
}

/** A tool call parley ran (or carried out after its approval) answered. */
export interface ToolResultEvent {
  readonly type: "tool-result"
  readonly toolCallId: string
  readonly output: JSONValue
  readonly providerMetadata?: Meta
}

/** A tool call parley ran failed, was refused, or was cut short by a limit: what the model is told. */
export interface ToolErrorEvent {
  readonly type: "tool-error"
  readonly toolCallId: string
  readonly errorText: string
  readonly providerMetadata?: Meta
}

/** A call that waits for a person's approval instead of running (docs/DESIGN.md §10). */
export interface ToolApprovalRequestEvent {
  readonly type: "tool-approval-request"
  readonly approvalId: string
  readonly toolCallId: string
}

/** A call its approver denied: it never ran. */
export interface ToolDeniedEvent {
  readonly type: "tool-output-denied"
  readonly toolCallId: string
}

/** The provider failed after the run's first event (docs/DESIGN.md §3.3): each door words it; `finish` follows. */
export interface RunErrorEvent {
  readonly type: "error"
  readonly failure: ProviderFailure
}

/**
 * The run's last event. `finishReason`: the model's last step's reason (`other`
 * when a limit interrupted the step, `error` when the provider failed);
 * `summary`: how the run ended, a limit of parley's included, and what it used.
 */
export interface FinishEvent {
  readonly type: "finish"
  readonly finishReason: FinishReason
  readonly summary: RunSummary
}

/** One event of a run, in the order the run emits them. */
export type RunEvent =
  | { readonly type: "start"; readonly messageId: string }
  | { readonly type: "start-step" }
  | { readonly type: "finish-step" }
  /** The step broke off and another target answers it: what was emitted since `start-step` is dropped (§15). */
  | { readonly type: "reset-step" }
  | BlockStartEvent
  | BlockDeltaEvent
  | TextEndEvent
  | ReasoningEndEvent
  | ToolInputStartEvent
  | ToolInputDeltaEvent
  | ToolCallEvent
  | ToolResultEvent
  | ToolErrorEvent
  | ToolApprovalRequestEvent
  | ToolDeniedEvent
  | RunErrorEvent
  | FinishEvent
