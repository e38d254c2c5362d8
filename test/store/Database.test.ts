import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../../src/config/AppConfig.ts"
import * as Database from "../../src/store/Database.ts"
import { migrations } from "../../src/store/Migrations.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "./postgres.ts"

const parse = (url: string) => Database.parseDatabaseUrl(Redacted.make(url))

const apiKeyColumns = [
  "account_id",
  "allowed_models",
  "allowed_tools",
  "approval_required",
  "created_at",
  "expires_at",
  "id",
  "last_used_at",
  "limits",
  "name",
  "prefix",
  "previous_expires_at",
  "previous_secret_hash",
  "secret_hash",
  "status"
]

/** Two databases built in one runtime (a gateway's and its sandboxes'), each behind its own tag. */
class First extends Context.Service<First, SqlClient.SqlClient>()("test/First") {}
class Second extends Context.Service<Second, SqlClient.SqlClient>()("test/Second") {}

const appliedMigrations = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{ migration_id: number }>`SELECT migration_id FROM parley_migrations ORDER BY migration_id`,
    (rows) => rows.map((row) => Number(row.migration_id))
  )

/** The migrations applied to each of two database layers built together. */
const migratedTogether = (first: string, second: string) =>
  Effect.gen(function*() {
    const one = yield* First
    const two = yield* Second
    return [yield* appliedMigrations(one), yield* appliedMigrations(two)]
  }).pipe(
    Effect.provide(Layer.mergeAll(
      Layer.effect(First, Effect.service(SqlClient.SqlClient)).pipe(Layer.provide(Database.layerFromUrl(first))),
      Layer.effect(Second, Effect.service(SqlClient.SqlClient)).pipe(Layer.provide(Database.layerFromUrl(second)))
    ))
  )

// Every migration's number, in order, as the record lists them.
const allMigrations = Object.keys(migrations).map((name) => Number(name.split("_", 1)[0]))

const insertAndReadKey = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const createdAt = new Date("2025-01-02T03:04:05.000Z")
  // Same secret hash twice: the second insert must violate the unique index.
  const insertKey = (id: string) =>
    sql`INSERT INTO api_keys ${
      sql.insert({
        id,
        name: "n",
        prefix: "pk_abc",
        secret_hash: "h",
        status: "active",
        allowed_models: "[]",
        allowed_tools: "[]",
        created_at: createdAt
      })
    }`
  yield* insertKey("key_1")
  const duplicate = yield* Effect.flip(insertKey("key_2"))
  assert.strictEqual(duplicate.reason._tag, "UniqueViolation")
  const badStatus = yield* Effect.flip(sql`UPDATE api_keys SET status = 'paused' WHERE id = 'key_1'`)
  assert.strictEqual(badStatus._tag, "SqlError")
  const [row] = yield* sql<{ created_at: unknown }>`SELECT created_at FROM api_keys WHERE id = 'key_1'`
  assert.strictEqual(new Date(row?.created_at as string | Date).toISOString(), createdAt.toISOString())
})

describe("parseDatabaseUrl", () => {
  it.effect("reads the supported schemes", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* parse("sqlite:./data/parley.db"), { _tag: "Sqlite", filename: "./data/parley.db" })
      assert.deepStrictEqual(yield* parse("sqlite::memory:"), { _tag: "Sqlite", filename: ":memory:" })
      assert.deepStrictEqual(yield* parse("sqlite:///var/db/p.db"), { _tag: "Sqlite", filename: "/var/db/p.db" })
      for (const url of ["postgres://u:pw@h:5432/db", "postgresql://h/db"]) {
        const target = yield* parse(url)
        assert.strictEqual(target._tag, "Postgres")
        assert.strictEqual(target._tag === "Postgres" && Redacted.value(target.url), url)
      }
    }))

  it.effect("rejects other URLs without echoing credentials", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(parse("mysql://root:hunter2@db/app"))
      assert.include(error.message, `"mysql"`)
      assert.notInclude(error.message, "hunter2")
      assert.include((yield* Effect.flip(parse("./parley.db"))).message, "has no scheme")
      assert.strictEqual((yield* Effect.flip(parse("sqlite:")))._tag, "InvalidDatabaseUrl")
    }))
})

describe("Database on SQLite", () => {
  it.effect("migrates a fresh file the configuration names, once", () =>
    Effect.gen(function*() {
      const filename = join(mkdtempSync(join(tmpdir(), "parley-db-")), "sub", "parley.db")
      const layer = Database.layer.pipe(
        Layer.provide(AppConfig.layerTest({ databaseUrl: Redacted.make(`sqlite:${filename}`) }))
      )
      const columns = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* insertAndReadKey
        return yield* sql<{ name: string }>`SELECT name FROM pragma_table_info('api_keys') ORDER BY name`
      }).pipe(Effect.provide(layer))
      assert.deepStrictEqual(columns.map((c) => c.name), apiKeyColumns)
      assert.isTrue(existsSync(filename))

      // A second start finds the schema in place and keeps the data.
      const again = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const keys = yield* sql<{ id: string }>`SELECT id FROM api_keys`
        const applied = yield* sql<{ migration_id: number }>`SELECT migration_id FROM parley_migrations`
        return { keys: keys.map((k) => k.id), applied: applied.map((m) => m.migration_id) }
      }).pipe(Effect.provide(layer))
      assert.deepStrictEqual(again, { keys: ["key_1"], applied: allMigrations })
    }))

  it.effect("migrates each of two databases built in one runtime", () =>
    Effect.gen(function*() {
      const folder = mkdtempSync(join(tmpdir(), "parley-db-"))
      const applied = yield* migratedTogether(`sqlite:${join(folder, "a.db")}`, `sqlite:${join(folder, "b.db")}`)
      assert.deepStrictEqual(applied, [allMigrations, allMigrations])
      assert.deepStrictEqual(yield* migratedTogether("sqlite::memory:", "sqlite::memory:"), [
        allMigrations,
        allMigrations
      ])
    }))

  it.effect("works in memory", () => insertAndReadKey.pipe(Effect.provide(Database.layerFromUrl("sqlite::memory:"))))

  it.effect("fails to build on an unsupported URL", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Layer.build(Database.layerFromUrl("redis://127.0.0.1")))
      assert.strictEqual(error._tag, "InvalidDatabaseUrl")
    }))
})

describePostgres("Database on Postgres", () => {
  it.effect("migrates a fresh schema, once, and stores keys", () =>
    withFreshSchema((schema) =>
      Effect.gen(function*() {
        const layer = Database.layerFromUrl(urlWithSchema(schema))
        const columns = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* insertAndReadKey
          return yield* sql<{ column_name: string }>`
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = ${schema} AND table_name = 'api_keys' ORDER BY column_name`
        }).pipe(Effect.provide(layer))
        assert.deepStrictEqual(columns.map((c) => c.column_name), apiKeyColumns)
        const applied = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ migration_id: number }>`SELECT migration_id FROM parley_migrations`
        }).pipe(Effect.provide(layer))
        assert.deepStrictEqual(applied.map((m) => Number(m.migration_id)), allMigrations)
      })
    ))

  it.effect("migrates each of two databases built in one runtime, Postgres beside Postgres or SQLite", () =>
    withFreshSchema((first) =>
      withFreshSchema((second) =>
        Effect.gen(function*() {
          const both = yield* migratedTogether(urlWithSchema(first), urlWithSchema(second))
          assert.deepStrictEqual(both, [allMigrations, allMigrations])
        })
      )
    ).pipe(
      Effect.andThen(withFreshSchema((schema) =>
        Effect.gen(function*() {
          const mixed = yield* migratedTogether("sqlite::memory:", urlWithSchema(schema))
          assert.deepStrictEqual(mixed, [allMigrations, allMigrations])
        })
      ))
    ))
})
