import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type BudgetLimit, type BudgetWindow, budgetWindow, fromUnits } from "./budgetWindows.ts"

/** A reservation tried: whether it fit, and the window's count after it (before it, when it did not fit). */
export interface Reserved {
  readonly allowed: boolean
  readonly used: number
}

/** What a budget's window holds now, in the limit's unit, and when it resets. */
export interface BudgetUse {
  readonly used: number
  readonly resetAt: string
}

/**
 * The counters budgets are kept in (docs/DESIGN.md §11), shared by every
 * instance, in integer units (tokens, micro-dollars). A reservation is one
 * atomic check-and-add, so concurrent requests cannot both take the last
 * units; a settlement replaces a reservation by what was really used (0
 * releases it all) and never takes the count below zero. A counter lives
 * until its window resets.
 */
export class BudgetCounters extends Context.Service<BudgetCounters, {
  /** Adds `amount` to the window's count unless that would pass `limit`. */
  readonly reserve: (window: BudgetWindow, amount: number, limit: number) => Effect.Effect<Reserved>
  /** Replaces `reserved` of the window's count by `used`. */
  readonly settle: (window: BudgetWindow, reserved: number, used: number) => Effect.Effect<void>
  /** Read only: the count of `scope`'s current window of `limit` (for an endpoint showing consumption). */
  readonly budgetUsed: (scope: string, limit: BudgetLimit, now: number) => Effect.Effect<BudgetUse>
}>()("parley/store/BudgetCounters") {
  /**
   * In the SQL store: one conditional UPDATE checks and adds, atomic on
   * Postgres (the row is locked and the condition re-read) and on SQLite (one
   * writer; one instance). A window's row is created on its first use, which
   * also deletes the rows of windows that have reset.
   */
  static readonly layerSql = Layer.effect(
    BudgetCounters,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const count = (counter: string) =>
        Effect.map(
          sql<{ readonly used: number | string }>`SELECT used FROM budget_counters WHERE counter = ${counter}`,
          (rows) => Number(rows[0]?.used ?? 0)
        )
      // Made once, not per call: a generator made per call keeps its request past two scavenges (docs/DESIGN.md §12).
      const reserveIn = Effect.fnUntraced(function*(window: BudgetWindow, amount: number, limit: number) {
        const created = yield* sql`
          INSERT INTO budget_counters (counter, used, expires_at) VALUES (${window.counter}, 0, ${window.resetAt})
          ON CONFLICT (counter) DO NOTHING RETURNING counter`
        if (created.length > 0) {
          yield* sql`DELETE FROM budget_counters WHERE expires_at <= ${Date.now()} AND counter <> ${window.counter}`
        }
        const rows = yield* sql<{ readonly used: number | string }>`
          UPDATE budget_counters SET used = used + ${amount}
          WHERE counter = ${window.counter} AND used + ${amount} <= ${limit} RETURNING used`
        if (rows[0] !== undefined) return { allowed: true, used: Number(rows[0].used) }
        return { allowed: false, used: yield* count(window.counter) }
      })
      return BudgetCounters.of({
        reserve: (window, amount, limit) => Effect.orDie(reserveIn(window, amount, limit)),
        settle: (window, reserved, used) =>
          Effect.orDie(Effect.asVoid(sql`
            UPDATE budget_counters
            SET used = CASE WHEN used - ${reserved} + ${used} < 0 THEN 0 ELSE used - ${reserved} + ${used} END
            WHERE counter = ${window.counter}`)),
        budgetUsed: (scope, limit, now) => {
          const window = budgetWindow(scope, limit, now)
          return Effect.orDie(Effect.map(count(window.counter), (units) => ({
            used: fromUnits(limit, units),
            resetAt: new Date(window.resetAt).toISOString()
          })))
        }
      })
    })
  )
}
