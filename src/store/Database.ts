import { Effect, Layer, Redacted, Schema } from "effect"
import type { Migrator, SqlClient, SqlError } from "effect/sql"
import { AppConfig } from "../config/AppConfig.ts"
import { ChangeFeed } from "./ChangeFeed.ts"
import * as Migrations from "./Migrations.ts"
import * as SqliteClient from "./SqliteClient.ts"

/**
 * The application's database, chosen by `DATABASE_URL`:
 * `sqlite:<path>` (default `sqlite:./data/parley.db`), `sqlite::memory:`, or
 * `postgres://…` / `postgresql://…`. Migrations run before the layer is ready.
 */
export class InvalidDatabaseUrl extends Schema.TaggedError<InvalidDatabaseUrl>()("InvalidDatabaseUrl", {
  message: Schema.String
}) {}

export type DatabaseTarget =
  | { readonly _tag: "Sqlite"; readonly filename: string }
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string> }

export const parseDatabaseUrl = (url: Redacted.Redacted<string>): Effect.Effect<DatabaseTarget, InvalidDatabaseUrl> => {
  const value = Redacted.value(url).trim()
  if (/^postgres(ql)?:\/\//i.test(value)) return Effect.succeed({ _tag: "Postgres", url: Redacted.make(value) })
  if (value.toLowerCase().startsWith("sqlite:")) {
    // Accept both `sqlite:path` and `sqlite://path` (so `sqlite:///abs/path` is absolute).
    const rest = value.slice("sqlite:".length)
    const filename = rest.startsWith("//") ? rest.slice(2) : rest
    if (filename !== "") return Effect.succeed({ _tag: "Sqlite", filename })
  }
  // Name only the scheme: the rest of the URL may hold credentials.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]
  return Effect.fail(
    new InvalidDatabaseUrl({
      message: `DATABASE_URL ${
        scheme === undefined ? "has no scheme" : `uses unsupported scheme "${scheme}"`
      }: use sqlite:<path>, sqlite::memory: or postgres://user@host:5432/db`
    })
  )
}

export type DatabaseError = InvalidDatabaseUrl | SqlError.SqlError | Migrator.MigrationError

/** Whether this process hears other instances' changes (the server) or only announces its own (the CLI). */
export interface DatabaseOptions {
  readonly listen?: boolean | undefined
}

// The Postgres driver is loaded only when used: SQLite users (and every CLI run on them) skip it.
const clientLayer = (
  target: DatabaseTarget,
  options: DatabaseOptions
): Layer.Layer<SqlClient.SqlClient | ChangeFeed, SqlError.SqlError> =>
  target._tag === "Sqlite"
    ? Layer.merge(SqliteClient.layer({ filename: target.filename }), ChangeFeed.layerLocal)
    : Layer.unwrap(
      Effect.map(
        Effect.all([
          Effect.promise(() => import("@effect/sql-pg/PgClient")),
          Effect.promise(() => import("./postgresChangeFeed.ts"))
        ]),
        ([PgClient, { makePostgresChangeFeed }]) =>
          Layer.effect(
            ChangeFeed,
            Effect.flatMap(
              Effect.service(PgClient.PgClient),
              (pg) => makePostgresChangeFeed(pg, { listen: options.listen === true })
            )
          ).pipe(Layer.provideMerge(PgClient.layer({ url: target.url })))
      )
    )

/**
 * A migrated database at the given URL, with its change feed (store/ChangeFeed.ts).
 * Each database gets a migration layer of its own: a runtime builds one layer
 * value once, so a shared one would migrate only the first of two databases
 * (a gateway's, and its sandboxes' kept elsewhere).
 */
export const layerFromUrl = (
  url: string | Redacted.Redacted<string>,
  options: DatabaseOptions = {}
): Layer.Layer<SqlClient.SqlClient | ChangeFeed, DatabaseError> =>
  Layer.unwrap(
    Effect.map(
      parseDatabaseUrl(Redacted.isRedacted(url) ? url : Redacted.make(url)),
      (target) => Layer.effectDiscard(Migrations.migrate).pipe(Layer.provideMerge(clientLayer(target, options)))
    )
  )

const configured = (options: DatabaseOptions) =>
  Layer.unwrap(Effect.map(Effect.service(AppConfig), (config) => layerFromUrl(config.databaseUrl, options)))

/** The migrated database the configuration names (`DATABASE_URL`); its changes are announced, not heard (the CLI). */
export const layer: Layer.Layer<SqlClient.SqlClient | ChangeFeed, DatabaseError, AppConfig> = configured({})

/** As `layer`, also hearing other instances' changes (the server, docs/DESIGN.md §8). */
export const layerListening: Layer.Layer<SqlClient.SqlClient | ChangeFeed, DatabaseError, AppConfig> = configured({
  listen: true
})
