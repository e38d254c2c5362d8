import { Schema } from "effect"

/**
 * The field schemas every door's body schema builds on, each with the
 * message its 400 names (docs/DESIGN.md §14).
 */
export const Text = Schema.String.annotate({ message: "must be a string" })

export const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)).annotate({
  message: "must be an integer of 1 or more"
})

export const between = (minimum: number, maximum: number) =>
  Schema.Number.check(Schema.isBetween({ minimum, maximum })).annotate({
    message: `must be a number from ${minimum} to ${maximum}`
  })
