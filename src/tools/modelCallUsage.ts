import type { LanguageModelUsage } from "ai"
import type { ModelCallUsage } from "./Tool.ts"

/** The usage of an AI SDK call (`generateText`'s `totalUsage`) as a tool reports it to the ledger. */
export const modelCallUsage = (usage: LanguageModelUsage): ModelCallUsage => ({
  inputTokens: usage.inputTokens,
  outputTokens: usage.outputTokens,
  reasoningTokens: usage.outputTokenDetails.reasoningTokens,
  cachedInputTokens: usage.inputTokenDetails.cacheReadTokens
})
