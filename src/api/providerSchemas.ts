import { Schema } from "effect"
import { Count } from "../domain/Count.ts"

/** GET /admin/v1/providers (docs/DESIGN.md §15): the views of `domain/views.ts`, as /openapi.json declares them. */
export const ProviderView = Schema.Struct({
  id: Schema.String,
  models: Schema.Array(Schema.String),
  failures: Count.annotate({ description: "Failures in a row that routes counted, as every instance sees them" }),
  cooledUntil: Schema.NullOr(Schema.String).annotate({
    description: "ISO-8601: until when routes try this provider last; null: they do not"
  })
})

export const RouteView = Schema.Struct({
  id: Schema.String,
  strategy: Schema.Literals(["fallback", "loadbalance"]),
  targets: Schema.Array(Schema.Struct({ model: Schema.String, weight: Schema.Finite.check(Schema.isGreaterThan(0)) })),
  firstChunkTimeoutMs: Schema.NullOr(Count)
})
