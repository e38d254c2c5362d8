import { Clock, Effect } from "effect"
import { type PricedUsage, type PriceList, requestCost } from "../models/pricing.ts"
import type { BudgetCounters } from "../store/BudgetCounters.ts"
import { type BudgetLimit, type BudgetWindow, budgetWindow, toUnits } from "../store/budgetWindows.ts"
import { LimitExceeded, refuseWith } from "./limitErrors.ts"

/** One budget a run counts against: a limit of its key or of its account. */
export interface BudgetLine {
  readonly limit: BudgetLimit
  readonly scope: "key" | "account"
  /** The counters' scope, `key:ID` or `account:ID`. */
  readonly scopeId: string
  /** The limit in the counters' integer units. */
  readonly units: number
}

/** What a run used so far: every model call's tokens, per model id (the run meter's `usageByModel`). */
export type Spent = ReadonlyArray<readonly [string, PricedUsage]>

/** What the next model call may use: its counted prompt and its output cap. */
export interface StepNeed {
  readonly inputTokens: number
  readonly outputTokens: number
}

interface Held {
  readonly line: BudgetLine
  readonly window: BudgetWindow
  readonly units: number
}

const tokensOf = (spent: Spent): number =>
  spent.reduce((sum, [, usage]) => sum + (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0), 0)

/**
 * One run's budgets (docs/DESIGN.md §11). Each model call is reserved before
 * it is made (its counted prompt and its output cap, in tokens and in USD at
 * the model's price); the reservation is settled with what the run really
 * used since the last settlement (the tools' own model calls included), which
 * releases the unused part. `end` settles the last reservation: a run that
 * failed or was cancelled before using anything releases it whole.
 */
export class RunBudget {
  private held: Array<Held> = []
  private settledTokens = 0
  private settledCost = 0

  private readonly counters: BudgetCounters["Service"]
  private readonly lines: ReadonlyArray<BudgetLine>
  private readonly prices: PriceList
  /** The run's model (`provider/model`), at whose price a step is reserved. */
  private readonly model: string
  /** The first call's need, counted when the run was planned. */
  readonly firstNeed: StepNeed
  /** Tokens of a text as the run's model counts them (what a tool's output adds to the next prompt). */
  readonly countText: (text: string) => number

  constructor(options: {
    readonly counters: BudgetCounters["Service"]
    readonly lines: ReadonlyArray<BudgetLine>
    readonly prices: PriceList
    readonly model: string
    readonly firstNeed: StepNeed
    readonly countText: (text: string) => number
  }) {
    this.counters = options.counters
    this.lines = options.lines
    this.prices = options.prices
    this.model = options.model
    this.firstNeed = options.firstNeed
    this.countText = options.countText
  }

  /** Reserves the first model call; over a budget, fails with LimitExceeded (a 429) and holds nothing. */
  get first(): Effect.Effect<void, LimitExceeded> {
    return Effect.flatMap(
      this.reserve(this.firstNeed),
      (refused) => refused === undefined ? Effect.void : refuseWith(refused)
    )
  }

  /**
   * Settles what the run used so far and reserves the next call, whose
   * prompt is `inputTokens`; false (holding nothing) when a budget has no room for it.
   */
  next(spent: Spent, inputTokens: number): Effect.Effect<boolean> {
    return Effect.andThen(
      this.settle(spent),
      Effect.map(
        this.reserve({ inputTokens, outputTokens: this.firstNeed.outputTokens }),
        (refused) => refused === undefined
      )
    )
  }

  /** Settles the run's last reservation with what it used: at its end, however it ended. */
  end(spent: Spent): Effect.Effect<void> {
    return this.settle(spent)
  }

  // Every budget or none: a refusal releases what this call reserved in the others. Uninterruptible,
  // so whatever was reserved is held, and `end` settles it.
  private reserve(need: StepNeed): Effect.Effect<LimitExceeded | undefined> {
    const cost = requestCost([[this.model, need]], this.prices) ?? 0
    const tokens = need.inputTokens + need.outputTokens
    return Effect.uninterruptible(Effect.gen({ self: this }, function*() {
      const now = yield* Clock.currentTimeMillis
      for (const line of this.lines) {
        const window = budgetWindow(line.scopeId, line.limit, now)
        const units = toUnits(line.limit, line.limit === "tokensPerDay" ? tokens : cost)
        const reserved = yield* this.counters.reserve(window, units, line.units)
        if (!reserved.allowed) {
          const held = this.held
          this.held = []
          yield* Effect.forEach(held, (h) => this.counters.settle(h.window, h.units, 0), { discard: true })
          return new LimitExceeded({
            limit: line.limit,
            scope: line.scope,
            retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
            resetAt: new Date(window.resetAt).toISOString()
          })
        }
        this.held.push({ line, window, units })
      }
      return undefined
    }))
  }

  // What was used since the last settlement replaces the open reservation; with none open
  // (nothing should be used then), it is counted in the current windows.
  private settle(spent: Spent): Effect.Effect<void> {
    return Effect.gen({ self: this }, function*() {
      const tokens = tokensOf(spent)
      const cost = toUnits("costPerMonthUsd", requestCost(spent, this.prices) ?? 0)
      const used = { tokensPerDay: tokens - this.settledTokens, costPerMonthUsd: cost - this.settledCost }
      this.settledTokens = tokens
      this.settledCost = cost
      const held = this.held
      this.held = []
      if (held.length > 0) {
        for (const h of held) yield* this.counters.settle(h.window, h.units, used[h.line.limit])
        return
      }
      if (used.tokensPerDay === 0 && used.costPerMonthUsd === 0) return
      const now = yield* Clock.currentTimeMillis
      for (const line of this.lines) {
        yield* this.counters.settle(budgetWindow(line.scopeId, line.limit, now), 0, used[line.limit])
      }
    })
  }
}
