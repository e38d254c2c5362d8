import * as PgTypes from "@effect/sql-pg/PgTypes"
import { Effect, Result } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { UsageEvent } from "../domain/UsageEvent.ts"
import { type UsageEventRow, usageEventRow } from "./usageEventRow.ts"

const { OID } = PgTypes

/**
 * Each column's element type. Every number goes as float8: a fraction for an
 * integer column is then rounded by Postgres (the assignment cast), as when a
 * number was bound alone, and no array's type depends on its values.
 */
const columnTypes: { readonly [Column in keyof UsageEventRow]: number } = {
  time: OID.timestamptz,
  account_id: OID.text,
  key_id: OID.text,
  correlation_id: OID.text,
  protocol: OID.text,
  model: OID.text,
  target: OID.text,
  status: OID.float8,
  outcome: OID.text,
  finish_reason: OID.text,
  refused_limit: OID.text,
  input_tokens: OID.float8,
  output_tokens: OID.float8,
  total_tokens: OID.float8,
  reasoning_tokens: OID.float8,
  cached_input_tokens: OID.float8,
  tool_calls: OID.text,
  tool_call_count: OID.float8,
  steps: OID.float8,
  duration_ms: OID.float8,
  first_byte_ms: OID.float8,
  pruned: OID.bool,
  cost_usd: OID.float8
}

const columns = Object.keys(columnTypes) as ReadonlyArray<keyof UsageEventRow>

const text = `INSERT INTO usage_events (${columns.join(", ")}) SELECT * FROM unnest(${
  columns.map((_, index) => `$${index + 1}`).join(", ")
})`

/**
 * Postgres writes a batch of any size as this one INSERT: one array per
 * column, sent in binary under its element type, so that the text and its
 * parameter types — one prepared statement — never vary, and the batch takes
 * one round trip. One statement is all or nothing without a transaction.
 */
export const pgBatchInsert =
  (sql: SqlClient.SqlClient) => (events: ReadonlyArray<UsageEvent>): Effect.Effect<void, SqlError.SqlError> =>
    events.length === 0 ? Effect.void : Effect.suspend(() => {
      const rows = events.map(usageEventRow)
      // `array` fails only for an element type it does not know: none of these.
      const arrays = columns.map((column) =>
        Result.getOrThrow(PgTypes.array(rows.map((row) => row[column]), columnTypes[column]))
      )
      return Effect.asVoid(sql.unsafe(text, arrays))
    })
