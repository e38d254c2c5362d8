import { Schema } from "effect"

/**
 * A count (tokens, messages, pixels): a whole number, 0 or more. Typed so the
 * contract says `integer`, where `Schema.Number` would also admit "NaN" and
 * "Infinity" strings in /openapi.json.
 */
export const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
