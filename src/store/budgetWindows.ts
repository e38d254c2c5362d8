/** The limits kept as budgets over a calendar window (docs/DESIGN.md §11). */
export type BudgetLimit = "tokensPerDay" | "costPerMonthUsd"

/** One window of one budget: the counter's name and when it resets (ms since the epoch). */
export interface BudgetWindow {
  readonly counter: string
  readonly resetAt: number
}

/**
 * `tokensPerDay` counts in the UTC calendar day, `costPerMonthUsd` in the UTC
 * calendar month. The window's start is in the counter's name, so a new window
 * starts from zero and an old one is only left to expire.
 */
export const budgetWindow = (scope: string, limit: BudgetLimit, now: number): BudgetWindow => {
  const at = new Date(now)
  const year = at.getUTCFullYear()
  const month = at.getUTCMonth()
  if (limit === "tokensPerDay") {
    const day = at.getUTCDate()
    return {
      counter: `${limit}:${scope}:${at.toISOString().slice(0, 10)}`,
      resetAt: Date.UTC(year, month, day + 1)
    }
  }
  return { counter: `${limit}:${scope}:${at.toISOString().slice(0, 7)}`, resetAt: Date.UTC(year, month + 1, 1) }
}

// Costs are counted in whole micro-dollars, so every backend adds integers exactly;
// a price per million tokens is then the micro-dollars of one token.
const MICRO_USD = 1_000_000

/** An amount in the limit's unit (tokens, USD) as the integer the counters hold, rounded up. */
export const toUnits = (limit: BudgetLimit, amount: number): number =>
  limit === "tokensPerDay" ? Math.ceil(amount) : Math.ceil(amount * MICRO_USD - 1e-6)

/** The counters' integer back in the limit's unit. */
export const fromUnits = (limit: BudgetLimit, units: number): number =>
  limit === "tokensPerDay" ? units : units / MICRO_USD
