import { Context, Effect, Layer, Option } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import type { Protocol } from "../domain/protocols.ts"
import type { UsageEvent } from "../domain/UsageEvent.ts"
import type { Outcome } from "../domain/usageOutcomes.ts"
import type { UsageRow } from "../domain/views.ts"
import { type BucketOf, bucketSql, type UsageFilter, usageRow, windowOf } from "./usageRows.ts"

export type { Grouping, UsageFilter } from "./usageRows.ts"

export interface RequestsFilter {
  readonly keyId?: string | undefined
  readonly accountId?: string | undefined
  /** Rows per page: default 50, at most 500. */
  readonly limit?: number | undefined
  /** The cursor: only rows before this time (the last row's `time` of the previous page). */
  readonly before?: Date | undefined
}

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 500

// Postgres gives BIGINT counts and sums as strings, TIMESTAMPTZ as Date; SQLite numbers and ISO text.
const count = (value: unknown): number | null => value === null || value === undefined ? null : Number(value)
const timeOf = (value: unknown): Date => value instanceof Date ? value : new Date(String(value))

const toEvent = (row: Record<string, unknown>): UsageEvent => ({
  time: timeOf(row.time),
  accountId: String(row.account_id),
  keyId: String(row.key_id),
  correlationId: String(row.correlation_id),
  protocol: row.protocol as Protocol,
  model: row.model === null ? null : String(row.model),
  target: row.target === null || row.target === undefined ? null : String(row.target),
  status: Number(row.status),
  outcome: row.outcome as Outcome,
  finishReason: row.finish_reason === null ? null : String(row.finish_reason),
  refusedLimit: row.refused_limit === null ? null : String(row.refused_limit),
  inputTokens: count(row.input_tokens),
  outputTokens: count(row.output_tokens),
  totalTokens: count(row.total_tokens),
  reasoningTokens: count(row.reasoning_tokens),
  cachedInputTokens: count(row.cached_input_tokens),
  toolCalls: JSON.parse(String(row.tool_calls)),
  steps: Number(row.steps),
  durationMs: Number(row.duration_ms),
  firstByteMs: count(row.first_byte_ms),
  pruned: Boolean(row.pruned),
  costUsd: count(row.cost_usd)
})

/**
 * Reads the usage ledger (docs/DESIGN.md §6 and §7): usage summed per hour,
 * day, model or key, and the request rows themselves. Hours and days are UTC
 * on SQLite and Postgres alike. Filters narrow; the admin API decides who
 * may see what.
 */
export class UsageQueries extends Context.Service<UsageQueries, {
  readonly usage: (filter: UsageFilter) => Effect.Effect<ReadonlyArray<UsageRow>, SqlError.SqlError>
  /** Newest first. */
  readonly requests: (filter: RequestsFilter) => Effect.Effect<ReadonlyArray<UsageEvent>, SqlError.SqlError>
  /** The newest row with this correlation id (a client may reuse one), within `accountId` when given. */
  readonly request: (
    correlationId: string,
    accountId?: string
  ) => Effect.Effect<Option.Option<UsageEvent>, SqlError.SqlError>
}>()("parley/ledger/UsageQueries") {
  static readonly layer = Layer.effect(
    UsageQueries,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const dialect = sql.onDialectOrElse({ pg: () => "pg" as const, orElse: () => "sqlite" as const })

      const equal = (column: string, value: string | undefined): ReadonlyArray<Statement.Fragment> =>
        value === undefined ? [] : [sql`${sql(column)} = ${value}`]

      const usage = (filter: UsageFilter) => {
        const { from, to } = windowOf(filter, new Date())
        const where = sql.and([
          sql`time >= ${from}`,
          sql`time < ${to}`,
          ...equal("key_id", filter.keyId),
          ...equal("account_id", filter.accountId),
          ...equal("model", filter.model)
        ])
        const bucket: BucketOf = bucketSql(filter.groupBy, dialect)
        return Effect.map(
          sql<Record<string, unknown>>`
            SELECT ${sql.literal(bucket.select)},
              COUNT(*) AS requests,
              SUM(CASE WHEN outcome IN ('error', 'rejected') THEN 1 ELSE 0 END) AS errors,
              SUM(input_tokens) AS input_tokens,
              SUM(output_tokens) AS output_tokens,
              SUM(total_tokens) AS total_tokens,
              SUM(reasoning_tokens) AS reasoning_tokens,
              SUM(cached_input_tokens) AS cached_input_tokens,
              SUM(tool_call_count) AS tool_calls,
              SUM(cost_usd) AS cost_usd
            FROM usage_events WHERE ${where}
            GROUP BY ${sql.literal(bucket.group)} ORDER BY ${sql.literal(bucket.group)}`,
          (rows) => rows.map((row) => usageRow(row, filter.groupBy, from))
        )
      }

      const requests = (filter: RequestsFilter) => {
        const limit = Math.min(Math.max(Math.trunc(filter.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT)
        const where = sql.and([
          ...equal("key_id", filter.keyId),
          ...equal("account_id", filter.accountId),
          ...(filter.before === undefined ? [] : [sql`time < ${filter.before}`])
        ])
        return Effect.map(
          sql<Record<string, unknown>>`SELECT * FROM usage_events WHERE ${where}
            ORDER BY time DESC, id DESC LIMIT ${limit}`,
          (rows) => rows.map(toEvent)
        )
      }

      const request = (correlationId: string, accountId?: string) =>
        Effect.map(
          sql<Record<string, unknown>>`SELECT * FROM usage_events WHERE ${
            sql.and([sql`correlation_id = ${correlationId}`, ...equal("account_id", accountId)])
          } ORDER BY time DESC, id DESC LIMIT 1`,
          (rows) => Option.map(Option.fromNullishOr(rows[0]), toEvent)
        )

      return UsageQueries.of({ usage, requests, request })
    })
  )
}
