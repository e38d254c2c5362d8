import { Clock, Effect } from "effect"
import { type PricedUsage, type PriceList, requestCost } from "../models/pricing.ts"
import type { BudgetCounters } from "../store/BudgetCounters.ts"
import { type BudgetLimit, type BudgetWindow, budgetWindow, toUnits } from "../store/budgetWindows.ts"
import { LimitExceeded } from "./limitErrors.ts"

/** One budget a run or a tool call counts against: a limit of its key or of its account. */
export interface BudgetLine {
  readonly limit: BudgetLimit
  readonly scope: "key" | "account"
  /** The counters' scope, `key:ID` or `account:ID`. */
  readonly scopeId: string
  /** The limit in the counters' integer units. */
  readonly units: number
}

/** What was used so far: every model call's tokens, per model id (the run meter's `usageByModel`). */
export type Spent = ReadonlyArray<readonly [string, PricedUsage]>

interface Held {
  readonly line: BudgetLine
  readonly window: BudgetWindow
  readonly units: number
}

const tokensOf = (spent: Spent): number =>
  spent.reduce((sum, [, usage]) => sum + (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0), 0)

/**
 * What one run or one tool call holds in its budgets (docs/DESIGN.md §11):
 * a reservation taken in every budget or in none, replaced at each
 * settlement by what was really used since the last one (each model's tokens
 * priced at its own `pricing`), which releases the unused part.
 */
export class BudgetHold {
  private held: Array<Held> = []
  private settledTokens = 0
  private settledCost = 0

  private readonly counters: BudgetCounters["Service"]
  private readonly lines: ReadonlyArray<BudgetLine>
  private readonly prices: PriceList

  constructor(counters: BudgetCounters["Service"], lines: ReadonlyArray<BudgetLine>, prices: PriceList) {
    this.counters = counters
    this.lines = lines
    this.prices = prices
  }

  /**
   * Reserves `unitsOf(limit)` in every budget; the refusal of the first that
   * has no room, holding nothing then. Uninterruptible, so whatever was
   * reserved is held until the next settlement.
   */
  reserve(unitsOf: (limit: BudgetLimit) => number): Effect.Effect<LimitExceeded | undefined> {
    return Effect.uninterruptible(BudgetHold.reserving(this, unitsOf))
  }

  // Generators made once, the hold an argument: one made per call would keep the request past two scavenges
  // (docs/DESIGN.md §12).
  private static readonly reserving = Effect.fnUntraced(function*(
    self: BudgetHold,
    unitsOf: (limit: BudgetLimit) => number
  ) {
    const now = yield* Clock.currentTimeMillis
    for (const line of self.lines) {
      const window = budgetWindow(line.scopeId, line.limit, now)
      const units = unitsOf(line.limit)
      const reserved = yield* self.counters.reserve(window, units, line.units)
      if (!reserved.allowed) {
        const held = self.held
        self.held = []
        yield* Effect.forEach(held, (h) => self.counters.settle(h.window, h.units, 0), { discard: true })
        return new LimitExceeded({
          limit: line.limit,
          scope: line.scope,
          retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
          resetAt: new Date(window.resetAt).toISOString()
        })
      }
      self.held.push({ line, window, units })
    }
    return undefined
  })

  /**
   * What was used since the last settlement (`spent` is the total so far)
   * replaces the open reservation; with none open (nothing should be used
   * then), it is counted in the current windows.
   */
  settle(spent: Spent): Effect.Effect<void> {
    return BudgetHold.settling(this, spent)
  }

  private static readonly settling = Effect.fnUntraced(function*(self: BudgetHold, spent: Spent) {
    const tokens = tokensOf(spent)
    const cost = toUnits("costPerMonthUsd", requestCost(spent, self.prices) ?? 0)
    const used = { tokensPerDay: tokens - self.settledTokens, costPerMonthUsd: cost - self.settledCost }
    self.settledTokens = tokens
    self.settledCost = cost
    const held = self.held
    self.held = []
    if (held.length > 0) {
      for (const h of held) yield* self.counters.settle(h.window, h.units, used[h.line.limit])
      return
    }
    if (used.tokensPerDay === 0 && used.costPerMonthUsd === 0) return
    const now = yield* Clock.currentTimeMillis
    for (const line of self.lines) {
      yield* self.counters.settle(budgetWindow(line.scopeId, line.limit, now), 0, used[line.limit])
    }
  })
}
