import { Clock, Context, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { AppConfig } from "../config/AppConfig.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { Limits } from "../domain/Limits.ts"
import type { Consumption } from "../domain/views.ts"
import { priceList } from "../models/pricing.ts"
import { BudgetCounters, type BudgetUse } from "../store/BudgetCounters.ts"
import { type BudgetLimit, toUnits } from "../store/budgetWindows.ts"
import { redisBudgets } from "../store/redisBudgets.ts"
import { RedisConnection } from "../store/RedisConnection.ts"
import { BudgetHold, type BudgetLine, type Spent } from "./BudgetHold.ts"
import type { Scope } from "./Limiter.ts"
import { type LimitExceeded, refuseWith } from "./limitErrors.ts"
import { RunBudget, type StepNeed } from "./RunBudget.ts"

const NO_LINES: ReadonlyArray<BudgetLine> = []
const BUDGET_LIMITS = ["tokensPerDay", "costPerMonthUsd"] as const

const budgeted = (limits: Limits | undefined): limits is Limits =>
  limits !== undefined && (limits.tokensPerDay !== undefined || limits.costPerMonthUsd !== undefined)

/** Whether the key or its account has a token or cost budget; checked first, so a run without one costs nothing. */
export const hasBudgets = (key: ApiKey): boolean => budgeted(key.limits) || budgeted(key.accountLimits)

const linesOf = (key: ApiKey): ReadonlyArray<BudgetLine> => {
  const { limits, accountLimits } = key
  const keyed = budgeted(limits)
  const accounted = budgeted(accountLimits)
  if (!keyed && !accounted) return NO_LINES
  const lines: Array<BudgetLine> = []
  const add = (scope: BudgetLine["scope"], scopeId: string, of: Limits) => {
    for (const limit of BUDGET_LIMITS) {
      const value = of[limit]
      if (value !== undefined) lines.push({ limit, scope, scopeId, units: toUnits(limit, value) })
    }
  }
  if (keyed) add("key", `key:${key.id}`, limits)
  if (accounted) add("account", `account:${key.accountId}`, accountLimits)
  return lines
}

/** What a run's budgets need from its plan: its model, its first call's need, and its tokenizer. */
export interface BudgetedRun {
  readonly model: string
  /**
   * The models its calls may be sent to, when not `model` alone: a route's
   * targets (a route has no price of its own, docs/DESIGN.md §15). Each call
   * is reserved at the dearest of their prices.
   */
  readonly targets?: ReadonlyArray<string> | undefined
  readonly need: () => StepNeed
  readonly countText: (text: string) => number
}

/** A tool call's budgets through /mcp: `end` charges what the tool's own model calls used, however it ended. */
export interface CallBudget {
  readonly end: (spent: Spent) => Effect.Effect<void>
}

/**
 * `tokensPerDay` and `costPerMonthUsd` of a key and of its account
 * (docs/DESIGN.md §11), each counted in its own scope, shared by every
 * instance. A key with neither on either side gets no budget: no counter is
 * touched and nothing is counted.
 */
export class Budgets extends Context.Service<Budgets, {
  /** The run's budgets, or undefined when none applies (then `run.need` is never called). */
  readonly open: (key: ApiKey, run: BudgetedRun) => Effect.Effect<RunBudget | undefined>
  /**
   * A tool call through /mcp, whose own model use cannot be bounded before
   * it runs: admitted while every budget has room for one unit (a token, a
   * micro-dollar), refused (and counted) when one has none; undefined when
   * none applies.
   */
  readonly admitCall: (key: ApiKey) => Effect.Effect<CallBudget | undefined, LimitExceeded>
  /** Read only: what `scope` (`key:ID`, `account:ID`) used of `limit` in the window holding `now`. */
  readonly budgetUsed: (scope: string, limit: BudgetLimit, now: number) => Effect.Effect<BudgetUse>
  /** Read only: `{used, limit, resetAt}` of each budget in `limits` (docs/DESIGN.md §6's `consumption`). */
  readonly consumption: (scope: Scope, id: string, limits: Limits) => Effect.Effect<Consumption>
}>()("parley/governance/Budgets") {
  static readonly make = Effect.gen(function*() {
    const counters = yield* BudgetCounters
    const prices = priceList(yield* AppConfig)
    const unpriced = new Set<string>()
    const warnUnpriced = (model: string, lines: ReadonlyArray<BudgetLine>) => {
      if (prices.has(model) || unpriced.has(model) || !lines.some((l) => l.limit === "costPerMonthUsd")) {
        return Effect.void
      }
      unpriced.add(model)
      return Effect.logWarning(`Model ${model} has no pricing: it costs 0 against costPerMonthUsd budgets`)
    }
    const open = Effect.fnUntraced(function*(key: ApiKey, run: BudgetedRun) {
      const lines = linesOf(key)
      if (lines.length === 0) return undefined
      const pricedAs = run.targets ?? [run.model]
      yield* Effect.forEach(pricedAs, (model) => warnUnpriced(model, lines), { discard: true })
      return new RunBudget({
        counters,
        lines,
        prices,
        pricedAs,
        firstNeed: run.need(),
        countText: run.countText
      })
    })
    const admitCall = Effect.fnUntraced(function*(key: ApiKey) {
      const lines = linesOf(key)
      if (lines.length === 0) return undefined
      const hold = new BudgetHold(counters, lines, prices)
      const refused = yield* hold.reserve(() => 1)
      if (refused !== undefined) return yield* refuseWith(refused)
      const end = (spent: Spent) =>
        Effect.andThen(Effect.forEach(spent, ([model]) => warnUnpriced(model, lines)), hold.settle(spent))
      return { end } satisfies CallBudget
    })
    const consumption = Effect.fnUntraced(function*(scope: Scope, id: string, limits: Limits) {
      const now = yield* Clock.currentTimeMillis
      const consumed: Consumption = {}
      for (const limit of BUDGET_LIMITS) {
        const value = limits[limit]
        if (value === undefined) continue
        const use = yield* counters.budgetUsed(`${scope}:${id}`, limit, now)
        consumed[limit] = { used: use.used, limit: value, resetAt: use.resetAt }
      }
      return consumed
    })
    return Budgets.of({ open, admitCall, budgetUsed: counters.budgetUsed, consumption })
  })

  /** Counters in Redis when `REDIS_URL` is set, else in the SQL store. */
  static readonly layer = Layer.unwrap(Effect.gen(function*() {
    const { redisUrl } = yield* AppConfig
    const counters: Layer.Layer<BudgetCounters, never, AppConfig | SqlClient.SqlClient> = redisUrl === undefined
      ? BudgetCounters.layerSql
      : Layer.provide(redisBudgets, RedisConnection.layer)
    return Layer.provide(Layer.effect(Budgets, Budgets.make), counters)
  }))
}
