import { PgClient } from "@effect/sql-pg"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import * as Migrations from "../../src/store/Migrations.ts"
import * as SqliteClient from "../../src/store/SqliteClient.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"

// The migrations before the ledger had its `protocol` column.
const before = Object.fromEntries(
  Object.entries(Migrations.migrations).filter(([name]) => Number(name.split("_")[0]) < 11)
)

/**
 * Rows as the ledger wrote them before (docs/DESIGN.md §7): chats of every
 * kind and /mcp tools/calls, each by a correlation id naming what it was.
 */
const oldRows = [
  // Chats: answered (a first byte), refused (4xx), failed (5xx), or left (499) before or after a step.
  { id: "ui-finished", status: 200, outcome: "finished", finish_reason: "stop", steps: 1, first_byte_ms: 20 },
  { id: "ui-validated", status: 200, outcome: "validated", finish_reason: null, steps: 0, first_byte_ms: 5 },
  { id: "ui-rejected", status: 400, outcome: "rejected", finish_reason: null, steps: 0, first_byte_ms: 3 },
  { id: "ui-limited", status: 429, outcome: "rejected", finish_reason: null, steps: 0, first_byte_ms: 3 },
  { id: "ui-error", status: 500, outcome: "error", finish_reason: null, steps: 1, first_byte_ms: 900 },
  { id: "ui-left-early", status: 499, outcome: "cancelled", finish_reason: null, steps: 0, first_byte_ms: null },
  {
    id: "ui-left-after-tools",
    status: 499,
    outcome: "cancelled",
    finish_reason: null,
    steps: 1,
    first_byte_ms: null,
    tools: 1
  },
  // /mcp: every answer a 200 without a first byte or step; 499 when the client left while the tool ran.
  {
    id: "mcp-finished",
    status: 200,
    outcome: "finished",
    finish_reason: null,
    steps: 0,
    first_byte_ms: null,
    tools: 1
  },
  { id: "mcp-rejected", status: 200, outcome: "rejected", finish_reason: null, steps: 0, first_byte_ms: null },
  {
    id: "mcp-approval",
    status: 200,
    outcome: "approval-required",
    finish_reason: null,
    steps: 0,
    first_byte_ms: null
  },
  { id: "mcp-left", status: 499, outcome: "cancelled", finish_reason: null, steps: 0, first_byte_ms: null, tools: 1 }
]

/** Each old row's protocol after migration 11, and what a new row written then holds. */
const migratesOldRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* Migrator.make({})({ loader: Migrator.fromRecord(before), table: Migrations.migrationsTable })
  for (const row of oldRows) {
    const tools = row.tools ?? 0
    yield* sql`INSERT INTO usage_events ${
      sql.insert({
        time: new Date(),
        account_id: "default",
        key_id: "key_a",
        correlation_id: row.id,
        model: null,
        status: row.status,
        outcome: row.outcome,
        finish_reason: row.finish_reason,
        tool_calls: JSON.stringify(tools === 0 ? {} : { echo: tools }),
        tool_call_count: tools,
        steps: row.steps,
        duration_ms: 40,
        first_byte_ms: row.first_byte_ms,
        pruned: false
      })
    }`
  }
  yield* Migrations.migrate
  const rows = yield* sql<{ readonly correlation_id: string; readonly protocol: string }>`
    SELECT correlation_id, protocol FROM usage_events ORDER BY id`
  assert.deepStrictEqual(
    rows.map((row) => [row.correlation_id, row.protocol]),
    oldRows.map((row) => [row.id, row.id.split("-")[0]])
  )
})

describe("migration 11 on SQLite: the ledger's protocol column", () => {
  it.effect("marks the rows written before as `ui` or `mcp` by what they say", () =>
    migratesOldRows.pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" }))))
})

describePostgres("migration 11 on Postgres: the ledger's protocol column", () => {
  it.live("marks the rows written before as `ui` or `mcp` by what they say", () =>
    withFreshSchema((schema) =>
      migratesOldRows.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(urlWithSchema(schema)) })))
    ))
})
