import type { FinishReason } from "../domain/ChatResponse.ts"

/** Token usage summed over steps; a field the provider never reported is absent (docs/DESIGN.md §3.17). */
export interface Usage {
  inputTokens?: number
  outputTokens?: number
  totalTokens?: number
  reasoningTokens?: number
  cachedInputTokens?: number
}

/**
 * A limit of parley's that ended the run before the model did (docs/DESIGN.md
 * §3.4; `budget`: the next step would pass a token or cost budget, §11), or a
 * tool call that waits for a person's approval (§10), or a client's stop of a resumable run (§16).
 */
export type LimitReason = "step-limit" | "timeout" | "approval-required" | "budget" | "stopped"

// The model ended its turn: anything else (cut off by its output limit, a limit of parley's, a failure) did not finish.
const FINISHED: ReadonlySet<FinishReason> = new Set(["stop", "content-filter", "tool-calls", "other"])

/** Whether a run that ended so finished its answer (docs/DESIGN.md §3.15). */
export const isFinished = (reason: FinishReason): boolean => FINISHED.has(reason)

/** How a run ended and what it used: the `finish` chunk's metadata, and the JSON answer's summary. */
export interface RunSummary {
  readonly finished: boolean
  /**
   * The model's last finish reason, a limit of parley's, or `error` when the
   * provider failed after the stream began (docs/DESIGN.md §3.3).
   */
  readonly finishReason: FinishReason
  readonly usage: Usage
}
