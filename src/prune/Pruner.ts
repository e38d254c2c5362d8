import type { ModelMessage } from "ai"
import { Context, Effect, Layer } from "effect"
import { outputReserveOf, type PruneOptions } from "../domain/PruneOptions.ts"
import { type TokenizerName, tokenizerOf } from "../domain/TokenizerName.ts"
import type { PruneReport } from "../domain/ValidationReport.ts"
import type { ModelEntry } from "../models/ModelRegistry.ts"
import type { Tool } from "../tools/Tool.ts"
import { toolDefinitions } from "../tools/toolDefinition.ts"
import { type InvalidPruneOptions, NoRoomForInput, TargetExceedsWindow } from "./pruneErrors.ts"
import { pruneHistory, type PruneResult } from "./pruneHistory.ts"
import { counterFor, type ToolDefinition } from "./tokenCount.ts"

export interface PruneInput {
  readonly system: string
  readonly messages: ReadonlyArray<ModelMessage>
  /** Per model message, the index of the client message it came from: pruning keeps, changes and drops those whole. */
  readonly origins: ReadonlyArray<number>
  readonly options: PruneOptions
  /** The model's context window, when the catalog knows it. */
  readonly contextWindow?: number | undefined
  /** The most the model can generate, when the catalog knows it. */
  readonly modelMaxOutputTokens?: number | undefined
  /** The model's tokenizer (ModelEntry.tokenizer); o200k_base when absent. */
  readonly tokenizer?: TokenizerName | undefined
  /** The tool definitions sent with the request: they take room in the window too. */
  readonly tools?: ReadonlyArray<ToolDefinition> | undefined
}

/** What pruning needs to know about the model a request runs on and the tools it is offered. */
export const pruneTarget = (entry: ModelEntry, tools: ReadonlyArray<Tool>) => ({
  contextWindow: entry.contextWindow,
  modelMaxOutputTokens: entry.maxOutputTokens,
  tokenizer: tokenizerOf(entry),
  // The definitions the agent sends (compiled once per tool).
  tools: toolDefinitions(tools)
})

/**
 * The input token budget (docs/DESIGN.md §3.11): `targetTokens`, capped by what the
 * context window leaves after reserving `maxOutputTokens`. The reserve is
 * never more than the model can generate: the default of 100,000 would
 * otherwise leave a 128k-window model only 28k of input, and none at all to
 * a 64k one.
 */
export const budgetOf = (
  options: PruneOptions,
  contextWindow: number | undefined,
  modelMaxOutputTokens?: number | undefined
): Effect.Effect<number, InvalidPruneOptions> => {
  if (contextWindow === undefined) return Effect.succeed(options.targetTokens)
  const asked = outputReserveOf(options)
  const reserve = Math.min(asked, modelMaxOutputTokens ?? asked)
  if (options.targetTokens > contextWindow) {
    return Effect.fail(new TargetExceedsWindow({ targetTokens: options.targetTokens, contextWindow }))
  }
  const room = contextWindow - reserve
  if (room <= 0) {
    return Effect.fail(new NoRoomForInput({ maxOutputTokens: reserve, contextWindow }))
  }
  return Effect.succeed(Math.min(options.targetTokens, room))
}

const run = (input: PruneInput) =>
  Effect.gen(function*() {
    const budget = yield* budgetOf(input.options, input.contextWindow, input.modelMaxOutputTokens)
    const tokenizer = input.tokenizer ?? "o200k_base"
    const counter = counterFor(tokenizer)
    const tools = input.tools ?? []
    const result = pruneHistory({
      system: input.system,
      messages: input.messages,
      origins: input.origins,
      tools,
      budget,
      preserveRecentMessages: input.options.preserveRecentMessages,
      counter
    })
    yield* Effect.annotateCurrentSpan({
      budget,
      tokenizer,
      stage: result.stage,
      tokensAfter: result.tokensAfter,
      removed: result.removed
    })
    return { result, counter, tools }
  })

/** Prunes old history so that the input fits the budget (docs/spec.md, POST /chat rule 10), in the stages of `pruneHistory`. */
export class Pruner extends Context.Service<Pruner, {
  readonly prune: (input: PruneInput) => Effect.Effect<PruneResult, InvalidPruneOptions>
  /**
   * The `prune` section of a ValidationReport: what `prune` would do, and the
   * tokens before it, counted over the whole history (which `prune` does not
   * read beyond where the budget is decided).
   */
  readonly preview: (input: PruneInput) => Effect.Effect<PruneReport, InvalidPruneOptions>
}>()("parley/prune/Pruner") {
  static readonly layer = Layer.succeed(
    Pruner,
    Pruner.of({
      prune: Effect.fn("Pruner.prune")(function*(input: PruneInput) {
        return (yield* run(input)).result
      }),
      preview: Effect.fn("Pruner.preview")(function*(input: PruneInput) {
        const { counter, result, tools } = yield* run(input)
        return {
          tokensBefore: counter.input(input.system, tools, input.messages),
          tokensAfter: result.tokensAfter,
          messagesRemoved: result.removed,
          stage: result.stage
        }
      })
    })
  )
}

export type { PruneResult } from "./pruneHistory.ts"
