import type { RunBudget } from "../governance/RunBudget.ts"
import { TOOL_CALL_TOKENS, TOOL_RESULT_TOKENS } from "../prune/tokenCount.ts"
import type { RunMeter } from "./RunMeter.ts"
import type { ToolOutcome } from "./runTools.ts"

/** The tokens of every model call the run made so far (the tools' own included). */
export const meteredTokens = (meter: RunMeter | undefined): number => {
  const usage = meter?.usage
  return (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0)
}

/**
 * Settles what the run used so far and reserves its next model call
 * (docs/DESIGN.md §11): false when a budget has no room for it. The next
 * prompt is the last one, the last answer and the tools' outputs; the step's
 * tokens (its prompt and answer, and any tool's own model calls) stand for
 * the first two, erring high.
 */
export const nextStepFits = (
  budget: RunBudget,
  meter: RunMeter | undefined,
  tokensBefore: number,
  outcomes: ReadonlyMap<string, ToolOutcome>
) => {
  let outputs = 0
  for (const outcome of outcomes.values()) {
    outputs += TOOL_CALL_TOKENS + TOOL_RESULT_TOKENS +
      budget.countText(outcome.ok ? JSON.stringify(outcome.output) : outcome.errorText)
  }
  const spent = meter?.usageByModel() ?? []
  return budget.next(spent, meteredTokens(meter) - tokensBefore + outputs)
}
