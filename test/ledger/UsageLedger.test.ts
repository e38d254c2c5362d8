import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Fiber, Latch, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { LedgerStore } from "../../src/ledger/LedgerStore.ts"
import { type LedgerOptions, UsageLedger } from "../../src/ledger/UsageLedger.ts"
import * as Database from "../../src/store/Database.ts"
import { countRows, usageEvent, type WatchedStore, watchedStore } from "./fixtures.ts"

const options: LedgerOptions = {
  batchSize: 500,
  interval: "1 second",
  retentionDays: 90,
  retentionEvery: "1 hour",
  prices: new Map()
}

// The writer is a forked fiber: let it run what is ready.
const settle = Effect.repeat(Effect.yieldNow, { times: 20 })

const DAY = 86_400_000

/** The ledger over a watched store; the database outlives it, so a test can read what its stop wrote. */
const withLedger = <A, E>(
  watched: WatchedStore,
  use: (ledger: UsageLedger["Service"]) => Effect.Effect<A, E, SqlClient.SqlClient>,
  overrides: Partial<LedgerOptions> = {}
) =>
  Effect.scoped(
    Effect.flatMap(
      Layer.build(UsageLedger.layerWith({ ...options, ...overrides }).pipe(Layer.provide(watchedStore(watched)))),
      (context) => use(Context.get(context, UsageLedger))
    )
  )

const database = Database.layerFromUrl("sqlite::memory:")

describe("UsageLedger", () => {
  it.effect("writes 500 rows at once in one write, and fewer only when a second has passed", () =>
    Effect.gen(function*() {
      const watched: WatchedStore = { inserts: [], failNext: 0 }
      yield* withLedger(watched, (ledger) =>
        Effect.gen(function*() {
          for (let i = 0; i < 499; i++) ledger.record(usageEvent({ correlationId: `c${i}` }))
          yield* settle
          yield* TestClock.adjust("900 millis")
          assert.deepStrictEqual(watched.inserts, [])

          ledger.record(usageEvent({ correlationId: "c499" }))
          yield* settle
          assert.deepStrictEqual(watched.inserts, [500])

          for (let i = 0; i < 3; i++) ledger.record(usageEvent())
          yield* TestClock.adjust("500 millis")
          assert.deepStrictEqual(watched.inserts, [500])
          yield* TestClock.adjust("500 millis")
          assert.deepStrictEqual(watched.inserts, [500, 3])
          assert.strictEqual(yield* countRows, 503)
        }))
    }).pipe(Effect.provide(database)))

  it.effect("writes a backlog in batches of at most 500", () =>
    Effect.gen(function*() {
      const watched: WatchedStore = { inserts: [], failNext: 0 }
      yield* withLedger(watched, (ledger) =>
        Effect.gen(function*() {
          for (let i = 0; i < 1_200; i++) ledger.record(usageEvent())
          yield* settle
          assert.deepStrictEqual(watched.inserts, [500, 500, 200])
        }))
    }).pipe(Effect.provide(database)))

  it.effect("keeps the rows of a failed write and retries with backoff: nothing lost, nothing twice", () =>
    Effect.gen(function*() {
      const watched: WatchedStore = { inserts: [], failNext: 2 }
      yield* withLedger(watched, (ledger) =>
        Effect.gen(function*() {
          for (let i = 0; i < 10; i++) ledger.record(usageEvent({ correlationId: `c${i}` }))
          yield* TestClock.adjust("1 second")
          assert.deepStrictEqual(watched.inserts, [])
          assert.strictEqual(watched.failNext, 1)
          // Retried after 1 s (fails again), then 2 s later.
          yield* TestClock.adjust("1 second")
          assert.strictEqual(watched.failNext, 0)
          ledger.record(usageEvent({ correlationId: "c10" }))
          yield* TestClock.adjust("2 seconds")
          assert.deepStrictEqual(watched.inserts, [11])
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<
            { readonly correlation_id: string }
          >`SELECT correlation_id FROM usage_events ORDER BY id`
          assert.deepStrictEqual(rows.map((row) => row.correlation_id), Array.from({ length: 11 }, (_, i) => `c${i}`))
        }))
    }).pipe(Effect.provide(database)))

  it.effect("flushes only once the batch the writer has begun is written", () =>
    Effect.gen(function*() {
      const gate = Latch.makeUnsafe(false)
      // The real store, whose writes wait at the gate.
      const gated = Layer.effect(
        LedgerStore,
        Effect.map(Effect.service(LedgerStore), (real) =>
          LedgerStore.of({
            insert: (events) => Effect.andThen(gate.await, real.insert(events)),
            deleteBefore: real.deleteBefore
          }))
      ).pipe(Layer.provide(LedgerStore.layer))
      yield* Effect.scoped(
        Effect.gen(function*() {
          const ledger = Context.get(
            yield* Layer.build(UsageLedger.layerWith(options).pipe(Layer.provide(gated))),
            UsageLedger
          )
          for (let i = 0; i < 500; i++) ledger.record(usageEvent())
          yield* settle
          const flush = yield* Effect.forkChild(ledger.flush)
          yield* settle
          assert.isUndefined(flush.pollUnsafe())
          yield* gate.open
          yield* Fiber.join(flush)
          assert.strictEqual(yield* countRows, 500)
        }).pipe(Effect.ensuring(gate.open))
      )
    }).pipe(Effect.provide(database)))

  // Live: the stop's own retries wait on the real clock.
  it.live("writes every buffered row when its layer stops, even while the store is failing", () =>
    Effect.gen(function*() {
      const watched: WatchedStore = { inserts: [], failNext: 0 }
      yield* withLedger(watched, (ledger) =>
        Effect.sync(() => {
          for (let i = 0; i < 1_234; i++) ledger.record(usageEvent())
          watched.failNext = 2
        }))
      assert.strictEqual(yield* countRows, 1_234)
    }).pipe(Effect.provide(database)))

  it.effect("deletes rows past the retention at start and every period", () =>
    Effect.gen(function*() {
      const store = yield* LedgerStore
      const now = Date.now()
      yield* store.insert([
        usageEvent({ correlationId: "old", time: new Date(now - 91 * DAY) }),
        usageEvent({ correlationId: "recent", time: new Date(now - 89 * DAY) })
      ])
      const watched: WatchedStore = { inserts: [], failNext: 0 }
      yield* withLedger(watched, () =>
        Effect.gen(function*() {
          yield* settle
          assert.strictEqual(yield* countRows, 1)
          yield* store.insert([usageEvent({ correlationId: "old again", time: new Date(now - 100 * DAY) })])
          yield* TestClock.adjust("1 hour")
          assert.strictEqual(yield* countRows, 1)
        }))
    }).pipe(Effect.provide(LedgerStore.layer.pipe(Layer.provideMerge(database)))))
})
