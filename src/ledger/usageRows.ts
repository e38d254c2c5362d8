import type { UsageRow } from "../domain/views.ts"

/** How usage is summed: per UTC hour, per UTC day, per model or per key (docs/DESIGN.md §6). */
export const groupings = ["hour", "day", "model", "key"] as const
export type Grouping = (typeof groupings)[number]

export interface UsageFilter {
  readonly groupBy: Grouping
  readonly keyId?: string | undefined
  readonly accountId?: string | undefined
  readonly model?: string | undefined
  /** Inclusive; default: 30 days before `to`. */
  readonly from?: Date | undefined
  /** Exclusive; default: now. */
  readonly to?: Date | undefined
}

const DEFAULT_WINDOW_MS = 30 * 86_400_000

export const windowOf = (filter: UsageFilter, now: Date): { readonly from: Date; readonly to: Date } => {
  const to = filter.to ?? now
  return { from: filter.from ?? new Date(to.getTime() - DEFAULT_WINDOW_MS), to }
}

/** The SELECT list's grouping columns and the GROUP BY that goes with them; both are fixed text. */
export interface BucketOf {
  readonly select: string
  readonly group: string
}

// Postgres truncates the instant in UTC; SQLite stores ISO 8601 in UTC (`Date.toISOString`), so a prefix is the truncation.
const timeBuckets = {
  pg: {
    hour: `to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24":00:00.000Z"')`,
    day: `to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T00:00:00.000Z"')`
  },
  sqlite: {
    hour: `substr(time, 1, 13) || ':00:00.000Z'`,
    day: `substr(time, 1, 10) || 'T00:00:00.000Z'`
  }
} as const

export const bucketSql = (groupBy: Grouping, dialect: "pg" | "sqlite"): BucketOf => {
  if (groupBy === "model") return { select: "model", group: "model" }
  if (groupBy === "key") return { select: "key_id", group: "key_id" }
  return { select: `${timeBuckets[dialect][groupBy]} AS bucket`, group: "bucket" }
}

const sum = (value: unknown): number => value === null || value === undefined ? 0 : Number(value)

/** A row of the usage query as §6 names its fields; grouped by model or key, its bucket is the window's start. */
export const usageRow = (row: Record<string, unknown>, groupBy: Grouping, from: Date): UsageRow => ({
  bucket: groupBy === "hour" || groupBy === "day" ? String(row.bucket) : from.toISOString(),
  ...(groupBy === "key" ? { keyId: String(row.key_id) } : {}),
  ...(groupBy === "model" && row.model !== null ? { model: String(row.model) } : {}),
  requests: sum(row.requests),
  errors: sum(row.errors),
  inputTokens: sum(row.input_tokens),
  outputTokens: sum(row.output_tokens),
  totalTokens: sum(row.total_tokens),
  reasoningTokens: sum(row.reasoning_tokens),
  cachedInputTokens: sum(row.cached_input_tokens),
  toolCalls: sum(row.tool_calls),
  costUsd: row.cost_usd === null || row.cost_usd === undefined ? null : Number(row.cost_usd)
})
