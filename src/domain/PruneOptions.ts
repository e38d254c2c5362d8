import { Effect, Schema } from "effect"

const Count = Schema.Number.check(
  Schema.isInt({ message: "must be an integer" }),
  Schema.isGreaterThanOrEqualTo(0, { message: "must not be negative" })
)

const count = (defaultValue: number, description: string) =>
  Count.annotate({ description, default: defaultValue }).pipe(
    Schema.withDecodingDefaultKey(Effect.succeed(defaultValue))
  )

export const pruneDefaults = {
  maxOutputTokens: 100_000,
  targetTokens: 80_000,
  preserveRecentMessages: 3
} as const

/**
 * Pruning options (spec: PruneOptions); unspecified fields take their
 * defaults, except `maxOutputTokens`: given, it also caps the model's output
 * (`max_tokens`); absent, the pruner reserves the default and the model's
 * output is left to the provider (docs/DESIGN.md §3.11).
 */
export const PruneOptions = Schema.Struct({
  maxOutputTokens: Schema.optionalKey(Count.annotate({
    description:
      "Token quota reserved for the model's output; given, it also caps the output (capped in turn by what the model can generate).",
    default: pruneDefaults.maxOutputTokens
  })),
  targetTokens: count(pruneDefaults.targetTokens, "Input token count wanted after pruning."),
  preserveRecentMessages: count(pruneDefaults.preserveRecentMessages, "The most recent N messages are never pruned.")
}).annotate({ description: "Effective only when prune=true." })
export type PruneOptions = typeof PruneOptions.Type

/** The output reserve pruning takes from the context window: the caller's, or the default. */
export const outputReserveOf = (options: PruneOptions): number =>
  options.maxOutputTokens ?? pruneDefaults.maxOutputTokens
