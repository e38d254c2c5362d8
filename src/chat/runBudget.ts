import type { ModelMessage } from "ai"
import { tokenizerOf } from "../domain/TokenizerName.ts"
import type { BudgetedRun } from "../governance/Budgets.ts"
import type { ModelEntry } from "../models/ModelRegistry.ts"
import type { ModelTarget } from "../models/ModelRoute.ts"
import { counterFor } from "../prune/tokenCount.ts"
import type { Tool } from "../tools/Tool.ts"
import { toolDefinitions } from "../tools/toolDefinition.ts"

/** A model call's output cap when neither the request nor the catalog gives one (docs/DESIGN.md §11). */
export const DEFAULT_OUTPUT_CAP = 4_096

/** What the run will send: its model (a route's targets), system prompt, tools, conversation and `max_tokens`. */
export interface BudgetedPrompt {
  readonly entry: ModelEntry
  readonly targets: ReadonlyArray<ModelTarget> | undefined
  readonly system: string
  readonly tools: ReadonlyArray<Tool>
  readonly messages: ReadonlyArray<ModelMessage>
  readonly maxOutputTokens: number | undefined
}

/**
 * What the run's token and cost budgets (docs/DESIGN.md §11) count it with,
 * for a key that has some on its own or its account's side: the first call's
 * need is the prompt as the pruner counts it (tool definitions included)
 * plus the output cap: the `max_tokens` the call is sent with, else what the
 * model can generate, else 4096. A routed run's calls are priced as its
 * dearest target's: any of them may answer.
 */
export const budgetedRun = (prompt: BudgetedPrompt): BudgetedRun => {
  const counter = counterFor(tokenizerOf(prompt.entry))
  return {
    model: prompt.entry.id,
    targets: prompt.targets?.map((target) => target.id),
    need: () => ({
      inputTokens: counter.input(prompt.system, toolDefinitions(prompt.tools), prompt.messages),
      outputTokens: prompt.maxOutputTokens ?? prompt.entry.maxOutputTokens ?? DEFAULT_OUTPUT_CAP
    }),
    countText: (text) => counter.tokenizer.count(text, Infinity) as number
  }
}
