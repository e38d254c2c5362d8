import { Effect, Schema } from "effect"

const count = (defaultValue: number, description: string) =>
  Schema.Number.check(
    Schema.isInt({ message: "must be an integer" }),
    Schema.isGreaterThanOrEqualTo(0, { message: "must not be negative" })
  )
    .annotate({ description, default: defaultValue })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(defaultValue)))

export const pruneDefaults = {
  maxOutputTokens: 100_000,
  targetTokens: 80_000,
  preserveRecentMessages: 3
} as const

/** Pruning options (spec: PruneOptions); unspecified fields take their defaults. */
export const PruneOptions = Schema.Struct({
  maxOutputTokens: count(pruneDefaults.maxOutputTokens, "Token quota reserved for the model's output."),
  targetTokens: count(pruneDefaults.targetTokens, "Input token count wanted after pruning."),
  preserveRecentMessages: count(pruneDefaults.preserveRecentMessages, "The most recent N messages are never pruned.")
}).annotate({ description: "Effective only when prune=true." })
export type PruneOptions = typeof PruneOptions.Type
