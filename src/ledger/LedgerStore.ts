import { Array as Arr, Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { UsageEvent } from "../domain/UsageEvent.ts"
import { usageEventRow } from "./usageEventRow.ts"

/**
 * Rows per INSERT on SQLite. A multi-row INSERT's text depends on its row
 * count, and the driver keeps one prepared statement per text; a batch is
 * written in chunks of these sizes, largest first, so the ledger has three
 * texts, each short enough for SQLite's statement cache (`SqliteClient`).
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

const chunkedInsert = (sql: SqlClient.SqlClient) => (events: ReadonlyArray<UsageEvent>) => {
  const writes = chunked(events.map(usageEventRow)).map((rows) => sql`INSERT INTO usage_events ${sql.insert(rows)}`)
  const all = Effect.all(writes, { discard: true })
  // A batch of several INSERTs is one transaction: the ledger re-queues a failed batch whole.
  return writes.length > 1 ? sql.withTransaction(all) : all
}

/** SQL writes to the `usage_events` table (docs/DESIGN.md §7); the batching is `UsageLedger`'s. */
export class LedgerStore extends Context.Service<LedgerStore, {
  /** The batch is written whole or not at all. */
  readonly insert: (events: ReadonlyArray<UsageEvent>) => Effect.Effect<void, SqlError.SqlError>
  /** Deletes the rows older than `cutoff`. */
  readonly deleteBefore: (cutoff: Date) => Effect.Effect<void, SqlError.SqlError>
}>()("parley/ledger/LedgerStore") {
  static readonly layer = Layer.effect(
    LedgerStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Postgres writes a batch as one statement (`pgBatchInsert`), loaded only there, as its driver is.
      const insert = yield* sql.onDialectOrElse({
        pg: () => Effect.promise(() => import("./pgBatchInsert.ts")).pipe(Effect.map((pg) => pg.pgBatchInsert(sql))),
        orElse: () => Effect.succeed(chunkedInsert(sql))
      })
      return LedgerStore.of({
        insert,
        deleteBefore: (cutoff) => Effect.asVoid(sql`DELETE FROM usage_events WHERE time < ${cutoff}`)
      })
    })
  )
}
