import { Array as Arr, Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { UsageEvent } from "../domain/UsageEvent.ts"

/** How the numbers that may be null are bound: integer columns, and the one real column. */
interface Binding {
  readonly whole: (value: number | null) => unknown
  readonly real: (value: number | null) => unknown
}

const asIs: Binding = { whole: (value) => value, real: (value) => value }

/**
 * Postgres keeps a prepared statement per text *and* parameter types, and
 * types a number by its value (int4 or float8) but a null or a string by its
 * column: there these numbers go as text, so that each insert size is one
 * statement whatever its rows hold. A fraction for an integer column stays a
 * number (Postgres rounds it; as text it would be refused).
 */
const asText: Binding = {
  whole: (value) => value !== null && Number.isInteger(value) ? String(value) : value,
  real: (value) => value === null ? null : String(value)
}

const row = (event: UsageEvent, bind: Binding): Record<string, unknown> => ({
  time: event.time,
  account_id: event.accountId,
  key_id: event.keyId,
  correlation_id: event.correlationId,
  model: event.model,
  status: event.status,
  outcome: event.outcome,
  finish_reason: event.finishReason,
  refused_limit: event.refusedLimit,
  input_tokens: bind.whole(event.inputTokens),
  output_tokens: bind.whole(event.outputTokens),
  total_tokens: bind.whole(event.totalTokens),
  reasoning_tokens: bind.whole(event.reasoningTokens),
  cached_input_tokens: bind.whole(event.cachedInputTokens),
  tool_calls: JSON.stringify(event.toolCalls),
  // Summed by the usage queries, which then need not parse `tool_calls`.
  tool_call_count: Object.values(event.toolCalls).reduce((sum, count) => sum + count, 0),
  steps: event.steps,
  duration_ms: event.durationMs,
  first_byte_ms: bind.whole(event.firstByteMs),
  pruned: event.pruned,
  cost_usd: bind.real(event.costUsd)
})

/**
 * Rows per INSERT. A multi-row INSERT's text depends on its row count, and
 * the drivers keep one prepared statement per text; a batch is written in
 * chunks of these sizes, largest first, so the ledger has three texts, each
 * short enough for SQLite's statement cache (`SqliteClient`).
 */
export const insertSizes: ReadonlyArray<number> = [32, 8, 1]

/** The batch cut into `insertSizes` chunks, in order. */
const chunked = <A>(rows: ReadonlyArray<A>): Array<Arr.NonEmptyReadonlyArray<A>> => {
  const chunks: Array<Arr.NonEmptyReadonlyArray<A>> = []
  let start = 0
  for (const size of insertSizes) {
    for (; rows.length - start >= size; start += size) {
      const chunk = rows.slice(start, start + size)
      if (Arr.isReadonlyArrayNonEmpty(chunk)) chunks.push(chunk)
    }
  }
  return chunks
}

/** SQL writes to the `usage_events` table (docs/DESIGN.md §7); the batching is `UsageLedger`'s. */
export class LedgerStore extends Context.Service<LedgerStore, {
  /** One transaction: the batch is written whole or not at all. */
  readonly insert: (events: ReadonlyArray<UsageEvent>) => Effect.Effect<void, SqlError.SqlError>
  /** Deletes the rows older than `cutoff`. */
  readonly deleteBefore: (cutoff: Date) => Effect.Effect<void, SqlError.SqlError>
}>()("parley/ledger/LedgerStore") {
  static readonly layer = Layer.effect(
    LedgerStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const binding = sql.onDialectOrElse({ pg: () => asText, orElse: () => asIs })
      return LedgerStore.of({
        insert: (events) => {
          const writes = chunked(events.map((event) => row(event, binding))).map((rows) =>
            sql`INSERT INTO usage_events ${sql.insert(rows)}`
          )
          const all = Effect.all(writes, { discard: true })
          // A batch of several INSERTs is one transaction: the ledger re-queues a failed batch whole.
          return writes.length > 1 ? sql.withTransaction(all) : all
        },
        deleteBefore: (cutoff) => Effect.asVoid(sql`DELETE FROM usage_events WHERE time < ${cutoff}`)
      })
    })
  )
}
