/**
 * How a request ended, as the ledger says it (docs/DESIGN.md §7). The
 * model's own finish reasons (`stop`, `length`, `tool-calls`, …) are all
 * `finished` (the row keeps the reason itself in `finishReason`); parley's
 * limits keep their names; `cancelled` is a client that left (or a shutdown
 * that could not wait); `error` a provider failure or anything unexpected,
 * before or after the answer began; `rejected` a request refused after
 * authentication (400, 403, 413: nothing was run); `validated` a
 * `validateOnly` or `contextStrategy: "report"` request answered with its
 * report.
 */
export const outcomes = [
  "finished",
  "step-limit",
  "timeout",
  "approval-required",
  "budget",
  "cancelled",
  "error",
  "rejected",
  "validated"
] as const
export type Outcome = (typeof outcomes)[number]

/** One row of the ledger: facts about a request, never its content or a secret. */
export interface UsageEvent {
  readonly time: Date
  readonly accountId: string
  readonly keyId: string
  readonly correlationId: string
  /** The model the request named (absent when the body could not be read). */
  readonly model: string | null
  /** The HTTP status answered; 499 when the client left before any answer. */
  readonly status: number
  readonly outcome: Outcome
  /** The run's finish reason (docs/DESIGN.md §3.15) when a run ended with one. */
  readonly finishReason: string | null
  /** Tokens of every model call the request made, the tools' own included; null: no call reported the count. */
  readonly inputTokens: number | null
  readonly outputTokens: number | null
  readonly totalTokens: number | null
  readonly reasoningTokens: number | null
  readonly cachedInputTokens: number | null
  /** Tool calls by tool name. */
  readonly toolCalls: Readonly<Record<string, number>>
  /** The agent's model calls. */
  readonly steps: number
  readonly durationMs: number
  /** Until the first byte of the answer was written; null when none was. */
  readonly firstByteMs: number | null
  readonly pruned: boolean
  /** null when no model the request used has `pricing`. */
  readonly costUsd: number | null
}
