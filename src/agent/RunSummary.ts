/** Token usage summed over steps; a field the provider never reported is absent (docs/DESIGN.md §3.17). */
export interface Usage {
  inputTokens?: number
  outputTokens?: number
  totalTokens?: number
  reasoningTokens?: number
  cachedInputTokens?: number
}

/** How a run ended, when no limit cut it short or which limit did (docs/DESIGN.md §3.4). */
export type RunEnd =
  | { readonly finished: true }
  | { readonly finished: false; readonly finishReason: "step-limit" | "timeout" }

/** How a run ended and what it used: the `finish` chunk's metadata, and the JSON answer's summary. */
export type RunSummary = RunEnd & { readonly usage: Usage }
