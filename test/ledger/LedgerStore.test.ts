import { PgClient } from "@effect/sql-pg"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient, Statement } from "effect/sql"
import { DatabaseSync } from "node:sqlite"
import { vi } from "vitest"
import { insertSizes, LedgerStore } from "../../src/ledger/LedgerStore.ts"
import { UsageLedger } from "../../src/ledger/UsageLedger.ts"
import * as Database from "../../src/store/Database.ts"
import * as Migrations from "../../src/store/Migrations.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"
import { usageEvent } from "./fixtures.ts"

const counts = [0, 1, 7, 33, 1_000]

// Rows whose numbers that may be null are null, whole or fractional in turn: Postgres types parameters by value.
const event = (n: number, i: number) =>
  usageEvent({
    correlationId: `n${n}:${i}`,
    inputTokens: i % 3 === 0 ? null : i,
    reasoningTokens: i % 2 === 0 ? null : 7,
    firstByteMs: i % 5 === 0 ? null : 20,
    costUsd: i % 4 === 0 ? null : i % 4 === 1 ? 0 : i / 1_000
  })

interface Row {
  readonly correlation_id: string
  readonly input_tokens: number | null
  readonly reasoning_tokens: number | null
  readonly first_byte_ms: number | null
  readonly cost_usd: number | null
}

const expected = (n: number, i: number): Row => {
  const { correlationId, inputTokens, reasoningTokens, firstByteMs, costUsd } = event(n, i)
  return {
    correlation_id: correlationId,
    input_tokens: inputTokens,
    reasoning_tokens: reasoningTokens,
    first_byte_ms: firstByteMs,
    cost_usd: costUsd
  }
}

/** The INSERT texts run while `effect` runs, seen on their way to the driver. */
const capturingInserts = <A, E, R>(texts: Set<string>, effect: Effect.Effect<A, E, R>) =>
  Effect.provideService(effect, Statement.CurrentTransformer, (statement) =>
    Effect.sync(() => {
      const [text] = statement.compile()
      if (text.startsWith("INSERT INTO usage_events")) texts.add(text)
      return statement
    }))

const rowsOf = (text: string) => text.split("),(").length

/** N rows through the ledger (500 a batch), its stop writing what is left. */
const writeThroughLedger = (n: number) =>
  Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(
      UsageLedger.layerWith({
        batchSize: 500,
        interval: "1 second",
        retentionDays: 90,
        retentionEvery: "1 hour",
        prices: new Map()
      }).pipe(Layer.provide(LedgerStore.layer))
    )
    const ledger = Context.get(context, UsageLedger)
    for (let i = 0; i < n; i++) ledger.record(event(n, i))
    yield* ledger.flush
  }))

/**
 * Each count's rows are written once each, in order, with their values; the
 * INSERTs have the fixed sizes only, and `prepared` (how many INSERT
 * statements the driver prepared) shows each text prepared once.
 */
const writesEachRowOnce = (prepared: Effect.Effect<number, unknown, SqlClient.SqlClient>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const texts = new Set<string>()
    for (const n of counts) {
      yield* capturingInserts(texts, writeThroughLedger(n))
      const rows = yield* sql<Row>`SELECT correlation_id, input_tokens, reasoning_tokens, first_byte_ms, cost_usd
        FROM usage_events WHERE correlation_id LIKE ${`n${n}:%`} ORDER BY id`
      assert.deepStrictEqual(
        rows.map((row) => ({ ...row, cost_usd: row.cost_usd === null ? null : Number(row.cost_usd) })),
        Array.from({ length: n }, (_, i) => expected(n, i)),
        `${n} rows`
      )
    }
    assert.deepStrictEqual([...texts].map(rowsOf).sort((a, b) => b - a), [...insertSizes])
    assert.strictEqual(yield* prepared, texts.size)
  })

// A NOT NULL violation in the second INSERT of a 40-row batch (32 + 8).
const writesWholeOrNothing = Effect.gen(function*() {
  const store = yield* LedgerStore
  const batch = Array.from(
    { length: 40 },
    (_, i) => usageEvent({ correlationId: i === 35 ? null as unknown as string : `c${i}` })
  )
  yield* Effect.flip(store.insert(batch))
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM usage_events`
  assert.strictEqual(Number(row?.n), 0)
})

describe("LedgerStore on SQLite", () => {
  const database = Database.layerFromUrl("sqlite::memory:")

  it.effect("writes N rows once each in INSERTs of the fixed sizes, each prepared once", () => {
    const prepare = vi.spyOn(DatabaseSync.prototype, "prepare")
    const prepared = Effect.sync(() =>
      prepare.mock.calls.filter(([text]) => text.startsWith("INSERT INTO usage_events")).length
    )
    return writesEachRowOnce(prepared).pipe(
      Effect.ensuring(Effect.sync(() => prepare.mockRestore())),
      Effect.provide(database)
    )
  })

  it.effect("writes a batch of several INSERTs whole or not at all", () =>
    writesWholeOrNothing.pipe(Effect.provide(LedgerStore.layer.pipe(Layer.provideMerge(database)))))
})

describePostgres("LedgerStore on Postgres", () => {
  // One connection, so that its prepared statements are all the ledger's.
  const database = (schema: string) =>
    Layer.effectDiscard(Migrations.migrate).pipe(
      Layer.provideMerge(PgClient.layer({ url: Redacted.make(urlWithSchema(schema)), maxConnections: 1 }))
    )

  const prepared = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM pg_prepared_statements
      WHERE statement LIKE 'INSERT INTO usage_events%'`
    return Number(row?.n)
  })

  it.effect(
    "writes N rows once each in INSERTs of the fixed sizes, each prepared once",
    () => withFreshSchema((schema) => writesEachRowOnce(prepared).pipe(Effect.provide(database(schema)))),
    30_000
  )

  it.effect("writes a batch of several INSERTs whole or not at all", () =>
    withFreshSchema((schema) =>
      writesWholeOrNothing.pipe(Effect.provide(LedgerStore.layer.pipe(Layer.provideMerge(database(schema)))))
    ))

  it.effect("writes a fraction for an integer column (Postgres rounds it)", () =>
    withFreshSchema((schema) =>
      Effect.gen(function*() {
        const store = yield* LedgerStore
        yield* store.insert([usageEvent({ inputTokens: 12.4, costUsd: 2 })])
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ readonly input_tokens: number; readonly cost_usd: number }>`
          SELECT input_tokens, cost_usd FROM usage_events`
        assert.deepStrictEqual(rows.map((row) => [row.input_tokens, Number(row.cost_usd)]), [[12, 2]])
      }).pipe(Effect.provide(LedgerStore.layer.pipe(Layer.provideMerge(database(schema)))))
    ))
})
