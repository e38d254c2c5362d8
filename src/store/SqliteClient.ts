import { Effect, Layer, Semaphore, Stream } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient, SqlError, Statement } from "effect/sql"
import type { Connection } from "effect/sql/SqlConnection"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite"

/**
 * A `SqlClient` over Node's built-in `node:sqlite` (no native addon). One
 * synchronous connection is shared through a semaphore, as SQLite allows a
 * single writer anyway; `makeSqliteAcquirers` from effect/sql supplies the
 * leasing and the COMMIT-failure cleanup.
 */
export interface SqliteOptions {
  /** A file path, or `:memory:`. The parent folder of a file is created. */
  readonly filename: string
  /** How long a statement waits for another process's write lock (ms). */
  readonly busyTimeoutMs?: number | undefined
}

interface SqliteConnection extends Connection {
  readonly db: DatabaseSync
}

/** Statements are reused; the bound keeps a long-running server from hoarding them. */
const statementCacheSize = 200

/**
 * Longer statements are prepared for each use and not kept. A prepared
 * statement's memory grows with its parameters (~0.5 MiB for a 500-row,
 * 20-column insert), and a multi-row insert has one text per row count: kept,
 * 200 of them held ~120 MiB of native memory in the soak. The ledger now
 * writes in a few sizes under this length (`LedgerStore`); the bound stays for
 * any other statement whose text grows with its data.
 */
const cachedSqlLength = 2_000

// node:sqlite binds only null, numbers, bigints, strings and bytes.
const toSqlite = (value: unknown): SQLInputValue => {
  if (value === undefined || value === null) return null
  if (typeof value === "boolean") return value ? 1 : 0
  if (value instanceof Date) return value.toISOString()
  if (
    typeof value === "number" || typeof value === "bigint" || typeof value === "string" ||
    value instanceof Uint8Array
  ) return value
  return JSON.stringify(value)
}

// node:sqlite reports the SQLite result code as `errcode`; the classifier reads
// `errno`, so copy it across (this is how unique violations are recognised).
const withErrno = (cause: unknown): unknown => {
  if (cause instanceof Error && "errcode" in cause && !("errno" in cause)) {
    Object.assign(cause, { errno: cause.errcode })
  }
  return cause
}

const sqlError = (cause: unknown, operation: string) =>
  new SqlError.SqlError({
    reason: SqlError.classifySqliteError(withErrno(cause), { message: "Failed to execute statement", operation })
  })

const makeConnection = (db: DatabaseSync): SqliteConnection => {
  const cache = new Map<string, StatementSync>()

  const prepare = (sql: string, returnArrays: boolean): StatementSync => {
    const key = `${returnArrays ? "a" : "o"}:${sql}`
    const cached = cache.get(key)
    if (cached !== undefined) {
      // Re-insert to keep the map in least-recently-used order.
      cache.delete(key)
      cache.set(key, cached)
      return cached
    }
    const statement = db.prepare(sql, { returnArrays })
    if (sql.length > cachedSqlLength) return statement
    cache.set(key, statement)
    if (cache.size > statementCacheSize) {
      const oldest = cache.keys().next()
      if (oldest.done !== true) cache.delete(oldest.value)
    }
    return statement
  }

  const run = <A>(operation: string, f: () => A) => Effect.try({ try: f, catch: (cause) => sqlError(cause, operation) })

  const rows = (sql: string, params: ReadonlyArray<unknown>, prepared: boolean, returnArrays: boolean) =>
    run("execute", () => {
      const statement = prepared ? prepare(sql, returnArrays) : db.prepare(sql, { returnArrays })
      return statement.all(...params.map(toSqlite)) as ReadonlyArray<any>
    })

  const withTransform = (
    effect: Effect.Effect<ReadonlyArray<any>, SqlError.SqlError>,
    transformRows: (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
  ) => transformRows === undefined ? effect : Effect.map(effect, transformRows)

  return {
    db,
    execute: (sql, params, transformRows) => withTransform(rows(sql, params, true, false), transformRows),
    executeRaw: (sql, params) => run("executeRaw", () => prepare(sql, false).run(...params.map(toSqlite))),
    // node:sqlite is synchronous: a "stream" reads its rows in one step.
    executeStream: (sql, params, transformRows) =>
      Stream.fromIterableEffect(withTransform(rows(sql, params, true, false), transformRows)),
    executeValues: (sql, params) => rows(sql, params, true, true),
    executeValuesUnprepared: (sql, params) => rows(sql, params, false, true),
    executeUnprepared: (sql, params, transformRows) => withTransform(rows(sql, params, false, false), transformRows)
  }
}

const isFile = (filename: string) => filename !== ":memory:" && filename !== ""

/** Opens the database; it is closed when the scope closes. */
export const make = Effect.fnUntraced(function*(options: SqliteOptions) {
  const db = yield* Effect.acquireRelease(
    Effect.try({
      try: () => {
        if (isFile(options.filename)) mkdirSync(dirname(options.filename), { recursive: true })
        const db = new DatabaseSync(options.filename, { timeout: options.busyTimeoutMs ?? 5_000 })
        // WAL lets the CLI write while a server reads; NORMAL sync is safe under WAL.
        if (isFile(options.filename)) db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        // Each INSERT in a transaction of several (the ledger's batches) keeps a statement
        // journal; spilled to temporary files, they doubled the batch's writes and took ~30 % more CPU.
        db.exec("PRAGMA temp_store = MEMORY")
        return db
      },
      catch: (cause) => sqlError(cause, "open")
    }),
    (db) => Effect.sync(() => db.close())
  )
  const connection = makeConnection(db)
  const acquirers = SqlClient.makeSqliteAcquirers({
    connection: Effect.succeed(connection),
    semaphore: Semaphore.makeUnsafe(1),
    isTransaction: (conn) => conn.db.isTransaction
  })
  return yield* SqlClient.make({
    ...acquirers,
    compiler: Statement.makeCompilerSqlite(),
    driver: "sqlite-node",
    spanAttributes: [["db.system.name", "sqlite"]],
    // Take the write lock up front: a deferred transaction that later writes
    // fails at once with SQLITE_BUSY when another process wrote meanwhile.
    beginTransaction: "BEGIN IMMEDIATE",
    releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`
  })
})

/** A layer providing `SqlClient` for the given SQLite file or `:memory:`. */
export const layer = (options: SqliteOptions): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError> =>
  Layer.effect(SqlClient.SqlClient, make(options)).pipe(Layer.provide(Reactivity.layer))
