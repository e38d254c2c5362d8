import { Schema } from "effect"

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0, { message: "a positive integer" }))
const PositiveNumber = Schema.Finite.check(Schema.isGreaterThan(0, { message: "a positive number" }))

/**
 * Limits of a key or an account (docs/DESIGN.md §11), each optional: an absent
 * field is no limit. A key's and its account's both apply, each counted in its
 * own scope.
 */
export const Limits = Schema.Struct({
  requestsPerMinute: Schema.optionalKey(PositiveInt),
  concurrentRequests: Schema.optionalKey(PositiveInt),
  tokensPerDay: Schema.optionalKey(PositiveInt),
  costPerMonthUsd: Schema.optionalKey(PositiveNumber)
}).annotate({
  identifier: "Limits",
  description: "docs/DESIGN.md §11; each optional; a key's and its account's both apply"
})
export type Limits = typeof Limits.Type
