import { Clock, Context, Effect, Layer } from "effect"
import { configuredFailureCounters } from "../store/configuredFailureCounters.ts"
import { FailureCounters } from "../store/FailureCounters.ts"
import type { ModelTarget } from "./ModelRoute.ts"

/** A first failure cools a provider down for 1 s; each further one doubles it, up to 5 min. */
const BASE_MS = 1_000
const MAX_MS = 5 * 60_000
// An hour without failing forgives the earlier ones: the next cools down from the start again.
const FORGET_AFTER_MS = 60 * 60_000

const counterOf = (provider: string) => `cooldown:${provider}`

/** Until when a provider with these failures, the last at `at`, is skipped. */
export const cooledUntil = (failures: number, at: number): number =>
  at + Math.min(BASE_MS * 2 ** (failures - 1), MAX_MS)

/** A provider's cooldown: `until` is null when it is not skipped (any more). */
export interface CooldownState {
  readonly provider: string
  readonly failures: number
  /** Epoch ms. */
  readonly until: number | null
}

/**
 * Providers that keep failing a route's requests are skipped for a while
 * (docs/DESIGN.md §15): each failure that moved a request to the next target
 * doubles the wait, an answer begun clears it. The counts are every
 * instance's (`FailureCounters`: Redis when `REDIS_URL`, else the database),
 * so a provider one instance saw fail is skipped by all.
 */
export class ProviderCooldowns extends Context.Service<ProviderCooldowns, {
  /**
   * `targets` with those whose provider cools down moved last (never left
   * out: a request with every target cooling still tries them all), and the
   * providers that held failures, for `answered`.
   */
  readonly order: (
    targets: ReadonlyArray<ModelTarget>
  ) => Effect.Effect<{ readonly targets: ReadonlyArray<ModelTarget>; readonly failing: ReadonlySet<string> }>
  readonly failed: (provider: string) => Effect.Effect<void>
  readonly answered: (provider: string) => Effect.Effect<void>
  /** Each of `providers` as every instance sees it now: its failures in a row and until when it is skipped. */
  readonly states: (providers: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<CooldownState>>
}>()("parley/models/ProviderCooldowns") {
  static readonly make = Effect.gen(function*() {
    const counters = yield* FailureCounters
    return ProviderCooldowns.of({
      order: Effect.fnUntraced(function*(targets) {
        const now = yield* Clock.currentTimeMillis
        const held = yield* counters.latest(
          [...new Set(targets.map((t) => counterOf(t.provider)))],
          FORGET_AFTER_MS,
          now
        )
        const cooling = (target: ModelTarget) => {
          const count = held.get(counterOf(target.provider))
          return count !== undefined && now < cooledUntil(count.failures, count.at)
        }
        const failing = new Set(targets.filter((t) => held.has(counterOf(t.provider))).map((t) => t.provider))
        return {
          targets: [...targets.filter((target) => !cooling(target)), ...targets.filter(cooling)],
          failing
        }
      }),
      failed: (provider) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => counters.add([counterOf(provider)], FORGET_AFTER_MS, now)),
      answered: (provider) => counters.clear([counterOf(provider)]),
      states: Effect.fnUntraced(function*(providers) {
        if (providers.length === 0) return []
        const now = yield* Clock.currentTimeMillis
        const held = yield* counters.latest(providers.map(counterOf), FORGET_AFTER_MS, now)
        return providers.map((provider) => {
          const count = held.get(counterOf(provider))
          const until = count === undefined ? undefined : cooledUntil(count.failures, count.at)
          return {
            provider,
            failures: count?.failures ?? 0,
            until: until !== undefined && until > now ? until : null
          }
        })
      })
    })
  })

  /** Counted in Redis when `REDIS_URL` is set, else in the SQL store. */
  static readonly layer = Layer.effect(ProviderCooldowns, ProviderCooldowns.make).pipe(
    Layer.provide(configuredFailureCounters)
  )
}
