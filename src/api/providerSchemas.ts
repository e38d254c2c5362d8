import { Schema } from "effect"
import { Count } from "../domain/Count.ts"

const failures = Count.annotate({ description: "Failures in a row that routes counted, as every instance sees them" })
const cooledUntil = Schema.NullOr(Schema.String).annotate({
  description: "ISO-8601: until when routes try this provider last; null: they do not"
})

/** GET /admin/v1/providers (docs/DESIGN.md §15): the views of `domain/views.ts`, as /openapi.json declares them. */
export const ProviderView = Schema.Struct({
  id: Schema.String,
  models: Schema.Array(Schema.String),
  failures,
  cooledUntil
})

export const RouteTargetView = Schema.Struct({
  model: Schema.String,
  weight: Schema.Finite.check(Schema.isGreaterThan(0)),
  provider: Schema.String,
  failures,
  cooledUntil
}).annotate({ description: "A target, with its provider's state (cooldowns are kept per provider)" })

export const RouteView = Schema.Struct({
  id: Schema.String,
  strategy: Schema.Literals(["fallback", "loadbalance"]),
  targets: Schema.Array(RouteTargetView),
  firstChunkTimeoutMs: Schema.NullOr(Count)
})
