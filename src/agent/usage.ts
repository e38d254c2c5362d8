import type { LanguageModelV4Usage } from "@ai-sdk/provider"
import type { ModelCallUsage } from "../tools/Tool.ts"
import type { Usage } from "./RunSummary.ts"

// A count stays absent until some step reports it (the AI SDK's addTokenCounts).
const add = (a: number | undefined, b: number | undefined): number | undefined =>
  a == null && b == null ? undefined : (a ?? 0) + (b ?? 0)

/** Token usage summed over the steps of one run (docs/DESIGN.md §3.10). */
export class UsageTotals {
  private inputTokens: number | undefined
  private outputTokens: number | undefined
  private reasoningTokens: number | undefined
  private cachedInputTokens: number | undefined

  add(usage: LanguageModelV4Usage): void {
    this.inputTokens = add(this.inputTokens, usage.inputTokens.total)
    this.outputTokens = add(this.outputTokens, usage.outputTokens.total)
    this.reasoningTokens = add(this.reasoningTokens, usage.outputTokens.reasoning)
    this.cachedInputTokens = add(this.cachedInputTokens, usage.inputTokens.cacheRead)
  }

  /** A call counted in the spec's names (a tool's own model call). */
  addCounts(usage: ModelCallUsage): void {
    this.inputTokens = add(this.inputTokens, usage.inputTokens)
    this.outputTokens = add(this.outputTokens, usage.outputTokens)
    this.reasoningTokens = add(this.reasoningTokens, usage.reasoningTokens)
    this.cachedInputTokens = add(this.cachedInputTokens, usage.cachedInputTokens)
  }

  /** The spec's Usage, without the fields no provider reported. */
  toUsage(): Usage {
    const usage: Usage = {}
    const totalTokens = add(this.inputTokens, this.outputTokens)
    if (this.inputTokens !== undefined) usage.inputTokens = this.inputTokens
    if (this.outputTokens !== undefined) usage.outputTokens = this.outputTokens
    if (totalTokens !== undefined) usage.totalTokens = totalTokens
    if (this.reasoningTokens !== undefined) usage.reasoningTokens = this.reasoningTokens
    if (this.cachedInputTokens !== undefined) usage.cachedInputTokens = this.cachedInputTokens
    return usage
  }
}
