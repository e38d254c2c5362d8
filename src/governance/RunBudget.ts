import { Effect } from "effect"
import { dearestCost, type PriceList } from "../models/pricing.ts"
import type { BudgetCounters } from "../store/BudgetCounters.ts"
import { toUnits } from "../store/budgetWindows.ts"
import { BudgetHold, type BudgetLine, type Spent } from "./BudgetHold.ts"
import { type LimitExceeded, refuseWith } from "./limitErrors.ts"

/** What the next model call may use: its counted prompt and its output cap. */
export interface StepNeed {
  readonly inputTokens: number
  readonly outputTokens: number
}

/**
 * One run's budgets (docs/DESIGN.md §11). Each model call is reserved before
 * it is made (its counted prompt and its output cap, in tokens and in USD at
 * the price of the dearest model it may be sent to: the run's model, or a
 * route's targets); the reservation is settled with what the run really
 * used since the last settlement (the tools' own model calls included), which
 * releases the unused part. `end` settles the last reservation: a run that
 * failed or was cancelled before using anything releases it whole.
 */
export class RunBudget {
  private readonly hold: BudgetHold
  private readonly prices: PriceList
  /** The models a call may be sent to (`provider/model`), at the dearest of whose prices a step is reserved. */
  private readonly pricedAs: ReadonlyArray<string>
  /** The first call's need, counted when the run was planned. */
  readonly firstNeed: StepNeed
  /** Tokens of a text as the run's model counts them (what a tool's output adds to the next prompt). */
  readonly countText: (text: string) => number

  constructor(options: {
    readonly counters: BudgetCounters["Service"]
    readonly lines: ReadonlyArray<BudgetLine>
    readonly prices: PriceList
    readonly pricedAs: ReadonlyArray<string>
    readonly firstNeed: StepNeed
    readonly countText: (text: string) => number
  }) {
    this.hold = new BudgetHold(options.counters, options.lines, options.prices)
    this.prices = options.prices
    this.pricedAs = options.pricedAs
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
      this.hold.settle(spent),
      Effect.map(
        this.reserve({ inputTokens, outputTokens: this.firstNeed.outputTokens }),
        (refused) => refused === undefined
      )
    )
  }

  /** Settles the run's last reservation with what it used: at its end, however it ended. */
  end(spent: Spent): Effect.Effect<void> {
    return this.hold.settle(spent)
  }

  // A call's tokens, and their cost at the dearest price it may be charged.
  private reserve(need: StepNeed): Effect.Effect<LimitExceeded | undefined> {
    const cost = dearestCost(this.pricedAs, need, this.prices)
    const tokens = need.inputTokens + need.outputTokens
    return this.hold.reserve((limit) => toUnits(limit, limit === "tokensPerDay" ? tokens : cost))
  }
}
