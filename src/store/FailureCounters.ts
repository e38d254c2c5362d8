import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** A counter's failures, and the time of the last. */
export interface FailureCount {
  readonly failures: number
  readonly at: number
}

/**
 * Failure counts shared by every instance (the console's sign-in throttle,
 * docs/DESIGN.md §6). A count is forgotten once `quietMs` pass without a
 * failure, and its storage goes with it, so the store stays bounded however
 * many names are tried. Counter names are opaque here: callers hash them.
 */
export class FailureCounters extends Context.Service<FailureCounters, {
  /** The most failures any of `counters` (never empty) holds at `now` (0: none, or all gone quiet). */
  readonly most: (counters: ReadonlyArray<string>, quietMs: number, now: number) => Effect.Effect<number>
  /** One more failure for each of `counters` at `now`; a count gone quiet starts again at 1. */
  readonly add: (counters: ReadonlyArray<string>, quietMs: number, now: number) => Effect.Effect<void>
  readonly clear: (counters: ReadonlyArray<string>) => Effect.Effect<void>
  /** Each of `counters` that holds failures at `now`: how many, and when the last one was (a cooldown's start). */
  readonly latest: (
    counters: ReadonlyArray<string>,
    quietMs: number,
    now: number
  ) => Effect.Effect<ReadonlyMap<string, FailureCount>>
}>()("parley/store/FailureCounters") {
  /**
   * In the SQL store (`failure_counters`): each failure is one upsert, atomic
   * on Postgres and on SQLite, and deletes the rows gone quiet (an index on
   * `last_at` keeps that cheap), so no sweeper is needed.
   */
  static readonly layerSql = Layer.effect(
    FailureCounters,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Made once, not per call: a generator made per call keeps its request past two scavenges (docs/DESIGN.md §12).
      const addAll = Effect.fnUntraced(function*(counters: ReadonlyArray<string>, quietMs: number, now: number) {
        for (const counter of counters) {
          yield* sql`
            INSERT INTO failure_counters (counter, failures, last_at) VALUES (${counter}, 1, ${now})
            ON CONFLICT (counter) DO UPDATE SET
              failures = CASE WHEN failure_counters.last_at <= ${now - quietMs} THEN 1
                ELSE failure_counters.failures + 1 END,
              last_at = ${now}`
        }
        yield* sql`DELETE FROM failure_counters WHERE last_at <= ${now - quietMs}`
      })
      return FailureCounters.of({
        most: (counters, quietMs, now) =>
          Effect.orDie(Effect.map(
            sql<{ readonly n: number | string | null }>`
              SELECT MAX(failures) AS n FROM failure_counters
              WHERE counter IN ${sql.in(counters)} AND last_at > ${now - quietMs}`,
            (rows) => Number(rows[0]?.n ?? 0)
          )),
        add: (counters, quietMs, now) => Effect.orDie(addAll(counters, quietMs, now)),
        clear: (counters) =>
          Effect.orDie(Effect.asVoid(sql`DELETE FROM failure_counters WHERE counter IN ${sql.in(counters)}`)),
        latest: (counters, quietMs, now) =>
          Effect.orDie(Effect.map(
            sql<{ readonly counter: string; readonly failures: number | string; readonly last_at: number | string }>`
              SELECT counter, failures, last_at FROM failure_counters
              WHERE counter IN ${sql.in(counters)} AND last_at > ${now - quietMs}`,
            (rows) =>
              new Map(rows.map((row) => [row.counter, { failures: Number(row.failures), at: Number(row.last_at) }]))
          ))
      })
    })
  )
}
