import { Effect, Layer } from "effect"
import { Migrator, SqlClient, type SqlError } from "effect/sql"

/**
 * The schema, as numbered migrations that run once each, in order, on SQLite
 * and Postgres alike. Append new migrations; never edit an applied one.
 */
const migrations = {
  "1_create_api_keys": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Postgres keeps real instants; SQLite stores ISO-8601 text, which sorts correctly.
    const timestamp = sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" })
    yield* sql.unsafe(`
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        secret_hash TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'revoked')),
        allowed_models TEXT NOT NULL,
        allowed_tools TEXT NOT NULL,
        created_at ${timestamp} NOT NULL,
        last_used_at ${timestamp},
        expires_at ${timestamp}
      )
    `)
  }),
  // docs/DESIGN.md §8: every instance on one database sees every sandbox and the instance holding it.
  "2_create_sandboxes": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const timestamp = sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" })
    yield* sql.unsafe(`
      CREATE TABLE sandboxes (
        id TEXT PRIMARY KEY,
        owner_key_id TEXT,
        desktop BOOLEAN NOT NULL,
        network BOOLEAN NOT NULL,
        created_at ${timestamp} NOT NULL,
        uid INTEGER NOT NULL,
        instance TEXT NOT NULL
      )
    `)
  })
}

/** The table that records applied migrations. */
export const migrationsTable = "parley_migrations"

/** Applies pending migrations; concurrent starters (server and CLI) are safe. */
export const migrate = Migrator.make({})({
  loader: Migrator.fromRecord(migrations),
  table: migrationsTable
})

/** Runs the migrations when built, so anything built on top sees the full schema. */
export const layer: Layer.Layer<never, Migrator.MigrationError | SqlError.SqlError, SqlClient.SqlClient> = Layer
  .effectDiscard(migrate)
