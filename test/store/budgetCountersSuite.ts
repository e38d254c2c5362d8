import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { BudgetCounters } from "../../src/store/BudgetCounters.ts"
import { budgetWindow } from "../../src/store/budgetWindows.ts"

const LIMIT = 1_000

/** One step of a run's budget: reserve an amount, settle an open reservation (using a share of it), or cancel one. */
const Op = Schema.Union([
  // Amounts that add up to the limit exactly, so the boundary itself is tried often.
  Schema.Struct({ kind: Schema.Literal("reserve"), amount: Schema.Literals([0, 100, 250, 400, 500]) }),
  Schema.Struct({
    kind: Schema.Literal("settle"),
    pick: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 50 })),
    share: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 }))
  }),
  Schema.Struct({
    kind: Schema.Literal("cancel"),
    pick: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 50 }))
  })
])

const freshScope = () => `key:key_${randomBytes(6).toString("hex")}`

/** The same tests over any backend (SQLite, Postgres, Redis): docs/DESIGN.md §11. */
export const budgetCountersSuite = <E>(name: string, counters: Layer.Layer<BudgetCounters, E>) =>
  layer(counters, { timeout: "60 seconds" })(name, (it) => {
    it.effect.prop(
      "any interleaving of reserve, settle and cancel keeps the count between 0 and the limit, as a model does",
      [Schema.Array(Op).check(Schema.isMinLength(5))],
      ([ops]) =>
        Effect.gen(function*() {
          const store = yield* BudgetCounters
          const scope = freshScope()
          const now = Date.now()
          const window = budgetWindow(scope, "tokensPerDay", now)
          const open: Array<number> = []
          let used = 0
          for (const op of ops) {
            if (op.kind === "reserve") {
              const reserved = yield* store.reserve(window, op.amount, LIMIT)
              const fits = used + op.amount <= LIMIT
              assert.strictEqual(reserved.allowed, fits)
              if (fits) {
                used += op.amount
                open.push(op.amount)
              }
              assert.strictEqual(reserved.used, used)
            } else if (open.length > 0) {
              const [held] = open.splice(op.pick % open.length, 1)
              const actual = op.kind === "cancel" ? 0 : Math.floor((held! * op.share) / 100)
              yield* store.settle(window, held!, actual)
              used += actual - held!
            }
            const seen = (yield* store.budgetUsed(scope, "tokensPerDay", now)).used
            assert.strictEqual(seen, used)
            assert.isTrue(seen >= 0 && seen <= LIMIT)
          }
        }),
      { timeout: 60_000, arbitrary: { runs: 25 } }
    )

    it.effect("concurrent reservations take exactly what fits, never more", () =>
      Effect.gen(function*() {
        const store = yield* BudgetCounters
        const scope = freshScope()
        const window = budgetWindow(scope, "tokensPerDay", Date.now())
        const results = yield* Effect.forEach(
          Array.from({ length: 60 }, () => 70),
          (amount) => store.reserve(window, amount, LIMIT),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((r) => r.allowed).length, Math.floor(LIMIT / 70))
        assert.strictEqual((yield* store.budgetUsed(scope, "tokensPerDay", Date.now())).used, 14 * 70)
      }))

    it.effect("a counter is gone once its window has reset and another window is used", () =>
      Effect.gen(function*() {
        const store = yield* BudgetCounters
        const scope = freshScope()
        const reset = { counter: `tokensPerDay:${scope}:past`, resetAt: Date.now() - 1 }
        yield* store.reserve(reset, 10, LIMIT)
        yield* store.reserve(budgetWindow(scope, "tokensPerDay", Date.now()), 1, LIMIT)
        // Reserving nothing reads the count: a counter still there would say 10.
        assert.strictEqual((yield* store.reserve(reset, 0, LIMIT)).used, 0)
      }))

    it.effect("a settlement never takes the count below zero, and a cost is read back in USD", () =>
      Effect.gen(function*() {
        const store = yield* BudgetCounters
        const scope = freshScope()
        const now = Date.now()
        const window = budgetWindow(scope, "costPerMonthUsd", now)
        assert.isTrue((yield* store.reserve(window, 250_000, 1_000_000)).allowed)
        const read = yield* store.budgetUsed(scope, "costPerMonthUsd", now)
        assert.strictEqual(read.used, 0.25)
        assert.strictEqual(read.resetAt, new Date(window.resetAt).toISOString())
        yield* store.settle(window, 900_000, 0)
        assert.strictEqual((yield* store.budgetUsed(scope, "costPerMonthUsd", now)).used, 0)
      }))
  })
