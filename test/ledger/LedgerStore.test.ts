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

// Rows whose numbers that may be null are null, whole or fractional in turn: the Postgres driver types a number by its value.
const event = (n: number, i: number) =>
  usageEvent({
    correlationId: `n${n}:${i}`,
    protocol: i % 2 === 0 ? "ui" : "mcp",
    inputTokens: i % 3 === 0 ? null : i,
    reasoningTokens: i % 2 === 0 ? null : 7,
    firstByteMs: i % 5 === 0 ? null : 20,
    costUsd: i % 4 === 0 ? null : i % 4 === 1 ? 0 : i / 1_000
  })

interface Row {
  readonly correlation_id: string
  readonly protocol: string
  readonly input_tokens: number | null
  readonly reasoning_tokens: number | null
  readonly first_byte_ms: number | null
  readonly cost_usd: number | null
}

const expected = (n: number, i: number): Row => {
  const { correlationId, protocol, inputTokens, reasoningTokens, firstByteMs, costUsd } = event(n, i)
  return {
    correlation_id: correlationId,
    protocol,
    input_tokens: inputTokens,
    reasoning_tokens: reasoningTokens,
    first_byte_ms: firstByteMs,
    cost_usd: costUsd
  }
}

/** The INSERT texts run while `effect` runs, seen on their way to the driver, one per execution. */
const capturingInserts = <A, E, R>(texts: Array<string>, effect: Effect.Effect<A, E, R>) =>
  Effect.provideService(effect, Statement.CurrentTransformer, (statement) =>
    Effect.sync(() => {
      const [text] = statement.compile()
      if (text.startsWith("INSERT INTO usage_events")) texts.push(text)
      return statement
    }))

const rowsOf = (text: string) => text.split("),(").length

const batchSize = 500

/** N rows through the ledger (500 a batch), its stop writing what is left. */
const writeThroughLedger = (n: number) =>
  Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(
      UsageLedger.layerWith({
        batchSize,
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
 * Each count's rows are written once each, in order, with their values;
 * `checkTexts` is given the INSERTs each count ran, and `prepared` (how many
 * INSERT statements the driver prepared) must be the number of their texts.
 */
const writesEachRowOnce = (
  prepared: Effect.Effect<number, unknown, SqlClient.SqlClient>,
  checkTexts: (n: number, texts: ReadonlyArray<string>) => void
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const texts = new Set<string>()
    for (const n of counts) {
      const run: Array<string> = []
      yield* capturingInserts(run, writeThroughLedger(n))
      checkTexts(n, run)
      for (const text of run) texts.add(text)
      const rows = yield* sql<
        Row
      >`SELECT correlation_id, protocol, input_tokens, reasoning_tokens, first_byte_ms, cost_usd
        FROM usage_events WHERE correlation_id LIKE ${`n${n}:%`} ORDER BY id`
      assert.deepStrictEqual(
        rows.map((row) => ({ ...row, cost_usd: row.cost_usd === null ? null : Number(row.cost_usd) })),
        Array.from({ length: n }, (_, i) => expected(n, i)),
        `${n} rows`
      )
    }
    assert.strictEqual(yield* prepared, texts.size)
    return texts
  })

// A NOT NULL violation in row 36 of a 40-row batch: on SQLite, in its second INSERT (32 + 8).
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
    return writesEachRowOnce(
      prepared,
      (n, texts) => assert.strictEqual(texts.reduce((sum, text) => sum + rowsOf(text), 0), n, `${n} rows`)
    ).pipe(
      Effect.map((texts) => assert.deepStrictEqual([...texts].map(rowsOf).sort((a, b) => b - a), [...insertSizes])),
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
    "writes N rows once each, a batch in one INSERT of one text whatever its size, prepared once",
    () =>
      withFreshSchema((schema) =>
        writesEachRowOnce(
          prepared,
          (n, texts) => assert.strictEqual(texts.length, Math.ceil(n / batchSize), `${n} rows`)
        ).pipe(
          Effect.map((texts) => assert.strictEqual(texts.size, 1)),
          Effect.provide(database(schema))
        )
      ),
    30_000
  )

  it.effect("writes a batch whole or not at all", () =>
    withFreshSchema((schema) =>
      writesWholeOrNothing.pipe(Effect.provide(LedgerStore.layer.pipe(Layer.provideMerge(database(schema)))))
    ))

  it.effect("writes a fraction for an integer column (Postgres rounds it, a half to even)", () =>
    withFreshSchema((schema) =>
      Effect.gen(function*() {
        const store = yield* LedgerStore
        yield* store.insert([usageEvent({ inputTokens: 12.4, durationMs: 40.5, costUsd: 2 })])
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<
          { readonly input_tokens: number; readonly duration_ms: number; readonly cost_usd: number }
        >`
          SELECT input_tokens, duration_ms, cost_usd FROM usage_events`
        assert.deepStrictEqual(
          rows.map((row) => [row.input_tokens, row.duration_ms, Number(row.cost_usd)]),
          [[12, 40, 2]]
        )
      }).pipe(Effect.provide(LedgerStore.layer.pipe(Layer.provideMerge(database(schema)))))
    ))
})
