import { Effect, Layer, Redacted, Schema } from "effect"
import type { Migrator, SqlClient, SqlError } from "effect/sql"
import { AppConfig } from "../config/AppConfig.ts"
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

// The Postgres driver is loaded only when used: SQLite users (and every CLI run on them) skip it.
const clientLayer = (target: DatabaseTarget): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError> =>
  target._tag === "Sqlite"
    ? SqliteClient.layer({ filename: target.filename })
    : Layer.unwrap(
      Effect.map(
        Effect.promise(() => import("@effect/sql-pg/PgClient")),
        (PgClient) => PgClient.layer({ url: target.url })
      )
    )

/** A migrated database at the given URL. */
export const layerFromUrl = (
  url: string | Redacted.Redacted<string>
): Layer.Layer<SqlClient.SqlClient, DatabaseError> =>
  Layer.unwrap(
    Effect.map(
      parseDatabaseUrl(Redacted.isRedacted(url) ? url : Redacted.make(url)),
      (target) => Migrations.layer.pipe(Layer.provideMerge(clientLayer(target)))
    )
  )

/** The migrated database the configuration names (`DATABASE_URL`). */
export const layer: Layer.Layer<SqlClient.SqlClient, DatabaseError, AppConfig> = Layer.unwrap(
  Effect.map(Effect.service(AppConfig), (config) => layerFromUrl(config.databaseUrl))
)
