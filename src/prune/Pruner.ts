import type { UIMessage } from "ai"
import { Context, Effect, Layer } from "effect"
import { BadRequest } from "../domain/errors.ts"
import type { PruneOptions } from "../domain/PruneOptions.ts"
import { pruneHistory, type PruneResult } from "./pruneHistory.ts"

export interface PruneInput {
  readonly system: string
  readonly messages: ReadonlyArray<UIMessage>
  readonly options: PruneOptions
  /** The model's context window, when the catalog knows it. */
  readonly contextWindow?: number | undefined
  /** The most the model can generate, when the catalog knows it. */
  readonly modelMaxOutputTokens?: number | undefined
}

/**
 * The input token budget (DESIGN §3.11): `targetTokens`, capped by what the
 * context window leaves after reserving `maxOutputTokens`. The reserve is
 * never more than the model can generate: the default of 100,000 would
 * otherwise leave a 128k-window model only 28k of input, and none at all to
 * a 64k one.
 */
export const budgetOf = (
  options: PruneOptions,
  contextWindow: number | undefined,
  modelMaxOutputTokens?: number | undefined
): Effect.Effect<number, BadRequest> => {
  if (contextWindow === undefined) return Effect.succeed(options.targetTokens)
  const reserve = Math.min(options.maxOutputTokens, modelMaxOutputTokens ?? options.maxOutputTokens)
  if (options.targetTokens > contextWindow) {
    return Effect.fail(invalid(
      `pruneOptions.targetTokens (${options.targetTokens}) exceeds the model's context window of ${contextWindow} tokens`,
      contextWindow
    ))
  }
  const room = contextWindow - reserve
  if (room <= 0) {
    return Effect.fail(invalid(
      `pruneOptions.maxOutputTokens (${reserve}) leaves no room for input in the model's context window of ${contextWindow} tokens`,
      contextWindow
    ))
  }
  return Effect.succeed(Math.min(options.targetTokens, room))
}

const invalid = (message: string, contextWindow: number) =>
  new BadRequest({ message, details: { error: message, contextWindow } })

/** Prunes old history messages so that the input fits the budget (rule 10). */
export class Pruner extends Context.Service<Pruner, {
  readonly prune: (input: PruneInput) => Effect.Effect<PruneResult, BadRequest>
}>()("parley/prune/Pruner") {
  static readonly layer = Layer.succeed(Pruner, Pruner.of({
    prune: Effect.fn("Pruner.prune")(function*(input: PruneInput) {
      const budget = yield* budgetOf(input.options, input.contextWindow, input.modelMaxOutputTokens)
      const result = pruneHistory({
        system: input.system,
        messages: input.messages,
        budget,
        preserveRecentMessages: input.options.preserveRecentMessages
      })
      yield* Effect.annotateCurrentSpan({
        budget,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        removed: result.removed
      })
      return result
    })
  }))
}

export type { PruneResult } from "./pruneHistory.ts"
