import { Effect, Option, Schema, SchemaIssue } from "effect"
import { Flag } from "effect/cli"
import { Limits } from "../domain/Limits.ts"
import { CliFailure } from "./CliFailure.ts"

/** `--limits JSON` (docs/DESIGN.md §11): the same object, checked the same way, as the admin API's `limits`. */
export const limitsFlag = Flag.String("limits").pipe(
  Flag.withDescription(
    "Limits as JSON, each optional: {\"requestsPerMinute\":60,\"concurrentRequests\":4," +
      "\"tokensPerDay\":100000,\"costPerMonthUsd\":50}; {} removes them"
  ),
  Flag.withMetavar("JSON"),
  Flag.optional
)

const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(Limits), { onExcessProperty: "error", errors: "all" })

/** The limits given, or undefined when the flag is absent. */
export const parseLimits = (text: Option.Option<string>): Effect.Effect<Limits | undefined, CliFailure> =>
  Option.isNone(text) ? Effect.succeed(undefined) : decode(text.value).pipe(
    Effect.mapError((error) =>
      new CliFailure({
        message: `--limits: ${SchemaIssue.makeFormatterDefault()(error.issue)}`
      })
    )
  )
