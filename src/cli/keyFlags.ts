import { Clock, Effect, Option } from "effect"
import { Flag } from "effect/cli"
import { CliFailure } from "./CliFailure.ts"

// The flags `parley keys create` and `parley keys update` share.

export const listFlag = (name: string, what: string) =>
  Flag.String(name).pipe(
    Flag.withDescription(
      `Allowed ${what}, comma-separated; * for all${
        name === "models" ? ", openai/* for a provider" : ""
      }. Omitted or empty: none`
    ),
    Flag.withMetavar("LIST"),
    Flag.optional
  )

export const approve = Flag.String("approve").pipe(
  Flag.withDescription(
    "Tools that wait for a person's approval before they run, comma-separated; * for all. " +
      "Adds to the account's list. Omitted or empty: none"
  ),
  Flag.withMetavar("LIST"),
  Flag.optional
)

export const expiresIn = Flag.Int("expires-in").pipe(
  Flag.withDescription("Days until the key expires (default: never)"),
  Flag.withMetavar("DAYS"),
  Flag.optional
)

/** `--expires-in DAYS` as an instant; at least a day. */
export const expiryOf = (days: Option.Option<number>) =>
  Effect.gen(function*() {
    if (Option.isNone(days)) return undefined
    if (days.value < 1) {
      return yield* new CliFailure({ message: "--expires-in must be a whole number of days, 1 or more." })
    }
    return new Date((yield* Clock.currentTimeMillis) + days.value * 86_400_000)
  })
