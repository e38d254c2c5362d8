import { Effect, Schema } from "effect"
import { Metrics } from "../observability/GatewayMetrics.ts"

/**
 * A request over one of its key's or account's limits (docs/DESIGN.md §11).
 * `retryAfterSeconds` is when a retry can succeed; `resetAt` is absent for
 * `concurrentRequests`, which frees as requests end.
 */
export class LimitExceeded extends Schema.TaggedError<LimitExceeded>()("LimitExceeded", {
  limit: Schema.String,
  scope: Schema.Literals(["key", "account"]),
  retryAfterSeconds: Schema.Number,
  resetAt: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return `Over the ${this.scope}'s ${this.limit} limit; retry after ${this.retryAfterSeconds} s`
  }
}

/** Refuses with `error`, counted in `parley_limit_refusals_total{limit,scope}` (docs/DESIGN.md §8). */
export const refuseWith = (error: LimitExceeded): Effect.Effect<never, LimitExceeded> =>
  Effect.andThen(Effect.map(Metrics, (metrics) => metrics.limitRefusal(error.limit, error.scope)), Effect.fail(error))
