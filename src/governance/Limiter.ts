import { Clock, Context, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { AppConfig } from "../config/AppConfig.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { Limits } from "../domain/Limits.ts"
import type { Consumed, Consumption } from "../domain/views.ts"
import { LimitCounters } from "../store/LimitCounters.ts"
import { RedisConnection } from "../store/RedisConnection.ts"
import { redisCounters } from "../store/redisCounters.ts"
import { LimitExceeded, refuseWith } from "./limitErrors.ts"

/** `requestsPerMinute` is a sliding window of this length (docs/DESIGN.md §11). */
export const MINUTE_MS = 60_000

/** An admitted request: the `RateLimit-*` headers of its answer, and what ends its stay in flight. */
export interface Admission {
  readonly headers: Readonly<Record<string, string>>
  readonly release: Effect.Effect<void>
}

export type Scope = "key" | "account"

const scopeId = (scope: Scope, id: string) => `${scope}:${id}`

interface Standing {
  readonly limit: number
  readonly remaining: number
  readonly resetSeconds: number
}

// Only these two are admitted here; budgets (tokensPerDay, costPerMonthUsd) are a run's (./Budgets.ts).
const limitsRequests = (limits: Limits | undefined): limits is Limits =>
  limits !== undefined && (limits.requestsPerMinute !== undefined || limits.concurrentRequests !== undefined)

const scopesOf = (key: ApiKey): ReadonlyArray<readonly [Scope, string, Limits]> => {
  const scopes: Array<readonly [Scope, string, Limits]> = []
  if (limitsRequests(key.limits)) scopes.push(["key", scopeId("key", key.id), key.limits])
  const account = key.accountLimits
  if (limitsRequests(account)) scopes.push(["account", scopeId("account", key.accountId), account])
  return scopes
}

/** The headers of the limit closest to exhaustion (lowest share remaining). */
const headersOf = (standings: ReadonlyArray<Standing>): Record<string, string> => {
  let closest = standings[0]!
  for (const s of standings) if (s.remaining / s.limit < closest.remaining / closest.limit) closest = s
  return {
    "ratelimit-limit": String(closest.limit),
    "ratelimit-remaining": String(closest.remaining),
    "ratelimit-reset": String(closest.resetSeconds)
  }
}

/**
 * Admits a request under its key's and its account's `requestsPerMinute` and
 * `concurrentRequests` (docs/DESIGN.md §11), each counted in its own scope.
 * A key with neither limit on either side (none, or budgets only) is admitted
 * without touching a counter.
 */
export class Limiter extends Context.Service<Limiter, {
  readonly admit: (key: ApiKey) => Effect.Effect<Admission | undefined, LimitExceeded>
  /** How much of `limits` the key or account `id` uses now, read without counting a request. */
  readonly consumption: (scope: Scope, id: string, limits: Limits) => Effect.Effect<Consumption>
}>()("parley/governance/Limiter") {
  static readonly make = (windowMs: number) =>
    Effect.gen(function*() {
      const counters = yield* LimitCounters
      const admit = Effect.fnUntraced(function*(key: ApiKey) {
        const scopes = scopesOf(key)
        if (scopes.length === 0) return undefined
        const entered: Array<string> = []
        const release = Effect.suspend(() => Effect.forEach(entered, counters.leave, { discard: true }))
        const standings: Array<Standing> = []
        const refuse = (error: LimitExceeded) => Effect.andThen(release, refuseWith(error))
        for (const [scope, id, limits] of scopes) {
          const limit = limits.concurrentRequests
          if (limit === undefined) continue
          const count = yield* counters.enter(id, limit)
          if (count === undefined) {
            return yield* refuse(new LimitExceeded({ limit: "concurrentRequests", scope, retryAfterSeconds: 1 }))
          }
          entered.push(id)
          standings.push({ limit, remaining: limit - count, resetSeconds: 1 })
        }
        for (const [scope, id, limits] of scopes) {
          const limit = limits.requestsPerMinute
          if (limit === undefined) continue
          const now = yield* Clock.currentTimeMillis
          const counted = yield* counters.hit(id, limit, windowMs, now)
          const resetAt = counted.oldestAt + windowMs
          const resetSeconds = Math.max(1, Math.ceil((resetAt - now) / 1000))
          if (!counted.allowed) {
            return yield* refuse(
              new LimitExceeded({
                limit: "requestsPerMinute",
                scope,
                retryAfterSeconds: resetSeconds,
                resetAt: new Date(resetAt).toISOString()
              })
            )
          }
          standings.push({ limit, remaining: limit - counted.count, resetSeconds })
        }
        return { headers: headersOf(standings), release }
      })
      const consumption = Effect.fnUntraced(function*(scope: Scope, id: string, limits: Limits) {
        const { concurrentRequests, requestsPerMinute } = limits
        if (concurrentRequests === undefined && requestsPerMinute === undefined) return {}
        const now = yield* Clock.currentTimeMillis
        const standing = yield* counters.peek(scopeId(scope, id), windowMs, now)
        const result: { -readonly [K in keyof Consumption]: Consumed } = {}
        if (requestsPerMinute !== undefined) {
          result.requestsPerMinute = {
            used: standing.hits,
            limit: requestsPerMinute,
            ...(standing.oldestAt === undefined
              ? {}
              : { resetAt: new Date(standing.oldestAt + windowMs).toISOString() })
          }
        }
        if (concurrentRequests !== undefined) {
          result.concurrentRequests = { used: standing.inFlight, limit: concurrentRequests }
        }
        return result
      })
      return Limiter.of({ admit, consumption })
    })

  /** Counters in Redis when `REDIS_URL` is set, else in the SQL store. */
  static readonly layer = Layer.unwrap(Effect.gen(function*() {
    const { redisUrl } = yield* AppConfig
    const counters: Layer.Layer<LimitCounters, never, AppConfig | SqlClient.SqlClient> = redisUrl === undefined
      ? LimitCounters.layerSql
      : Layer.provide(redisCounters, RedisConnection.layer)
    return Layer.provide(Layer.effect(Limiter, Limiter.make(MINUTE_MS)), counters)
  }))
}
