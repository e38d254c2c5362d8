import type { Protocol } from "./protocols.ts"
import type { Outcome } from "./usageOutcomes.ts"

/** One row of the ledger: facts about a request, never its content or a secret. */
export interface UsageEvent {
  readonly time: Date
  readonly accountId: string
  readonly keyId: string
  readonly correlationId: string
  /** How the request came in (docs/DESIGN.md §14): `ui` (POST /api/v1/chat), `mcp` (a tools/call on /mcp)… */
  readonly protocol: Protocol
  /** The model the request named (absent when the body could not be read). */
  readonly model: string | null
  /**
   * The provider model that served the answer: for a route (docs/DESIGN.md §15) the target that did, else the
   * model itself; null when no model call began an answer.
   */
  readonly target: string | null
  /** The HTTP status answered; 499 when the client left before any answer. */
  readonly status: number
  readonly outcome: Outcome
  /** The run's finish reason (docs/DESIGN.md §3.15) when a run ended with one. */
  readonly finishReason: string | null
  /** The limit that refused the request (a 429, outcome `rejected`): `requestsPerMinute`, `tokensPerDay`…; else null. */
  readonly refusedLimit: string | null
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
