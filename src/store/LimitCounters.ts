import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** One request counted in a sliding window: whether it fit, the count with it, and the oldest hit's time. */
export interface WindowCount {
  readonly allowed: boolean
  readonly count: number
  readonly oldestAt: number
}

/** What a scope holds now, read without counting (the admin API's consumption, docs/DESIGN.md §6). */
export interface Standing {
  /** Requests counted in the window ending `now`. */
  readonly hits: number
  /** The oldest of them; undefined when there are none. */
  readonly oldestAt: number | undefined
  readonly inFlight: number
}

/**
 * The counters limits are kept in, shared by every instance (docs/DESIGN.md
 * §11): each check and its increment are one atomic step, so concurrent
 * requests cannot both take the last unit. A scope is `key:ID` or `account:ID`.
 */
export class LimitCounters extends Context.Service<LimitCounters, {
  /** Counts a request at `now` in the window of `windowMs` unless `limit` are already in it. */
  readonly hit: (scope: string, limit: number, windowMs: number, now: number) => Effect.Effect<WindowCount>
  /** Enters one request in flight unless `limit` are; the count with it, or undefined when refused. */
  readonly enter: (scope: string, limit: number) => Effect.Effect<number | undefined>
  readonly leave: (scope: string) => Effect.Effect<void>
  /** Reads the window's hits and the requests in flight; changes nothing, so it never counts as a request. */
  readonly peek: (scope: string, windowMs: number, now: number) => Effect.Effect<Standing>
}>()("parley/store/LimitCounters") {
  /** In the SQL store: Postgres locks the scope's row; SQLite serves one instance. */
  static readonly layerSql = Layer.effect(
    LimitCounters,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rowLocks = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
      const lockScope = Effect.fnUntraced(function*(scope: string) {
        yield* sql`INSERT INTO limit_scopes (scope, in_flight) VALUES (${scope}, 0) ON CONFLICT (scope) DO NOTHING`
        if (rowLocks) yield* sql`SELECT in_flight FROM limit_scopes WHERE scope = ${scope} FOR UPDATE`
      })
      // Made once, not per call: a generator made per call keeps its request past two scavenges (docs/DESIGN.md §12).
      const hitIn = Effect.fnUntraced(function*(scope: string, limit: number, windowMs: number, now: number) {
        yield* lockScope(scope)
        yield* sql`DELETE FROM limit_hits WHERE scope = ${scope} AND at <= ${now - windowMs}`
        const rows = yield* sql<{ readonly n: number | string; readonly oldest: number | string | null }>`
          SELECT COUNT(*) AS n, MIN(at) AS oldest FROM limit_hits WHERE scope = ${scope}`
        const count = Number(rows[0]?.n ?? 0)
        const oldestAt = rows[0]?.oldest == null ? now : Number(rows[0].oldest)
        if (count >= limit) return { allowed: false, count, oldestAt }
        yield* sql`INSERT INTO limit_hits (scope, at) VALUES (${scope}, ${now})`
        return { allowed: true, count: count + 1, oldestAt }
      })
      const enterIn = Effect.fnUntraced(function*(scope: string, limit: number) {
        yield* lockScope(scope)
        const rows = yield* sql<{ readonly in_flight: number }>`
          UPDATE limit_scopes SET in_flight = in_flight + 1
          WHERE scope = ${scope} AND in_flight < ${limit} RETURNING in_flight`
        return rows[0] === undefined ? undefined : Number(rows[0].in_flight)
      })
      const peekAt = Effect.fnUntraced(function*(scope: string, windowMs: number, now: number) {
        // The hits `hit` would keep: those after the window's start (it deletes the rest when it next counts).
        const hits = yield* sql<{ readonly n: number | string; readonly oldest: number | string | null }>`
          SELECT COUNT(*) AS n, MIN(at) AS oldest FROM limit_hits WHERE scope = ${scope} AND at > ${now - windowMs}`
        const flight = yield* sql<{ readonly in_flight: number | string }>`
          SELECT in_flight FROM limit_scopes WHERE scope = ${scope}`
        return {
          hits: Number(hits[0]?.n ?? 0),
          oldestAt: hits[0]?.oldest == null ? undefined : Number(hits[0].oldest),
          inFlight: Number(flight[0]?.in_flight ?? 0)
        }
      })
      return LimitCounters.of({
        hit: (scope, limit, windowMs, now) =>
          sql.withTransaction(hitIn(scope, limit, windowMs, now)).pipe(Effect.orDie),
        enter: (scope, limit) => sql.withTransaction(enterIn(scope, limit)).pipe(Effect.orDie),
        leave: (scope) =>
          Effect.orDie(Effect.asVoid(
            sql`UPDATE limit_scopes SET in_flight = in_flight - 1 WHERE scope = ${scope} AND in_flight > 0`
          )),
        peek: (scope, windowMs, now) => Effect.orDie(peekAt(scope, windowMs, now))
      })
    })
  )
}
