import { PgClient } from "@effect/sql-pg"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { SandboxRecords } from "../../src/sandbox/SandboxRecords.ts"
import * as Migrations from "../../src/store/Migrations.ts"
import * as SqliteClient from "../../src/store/SqliteClient.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"

// The migrations before sandboxes had a backend.
const before = Object.fromEntries(
  Object.entries(Migrations.migrations).filter(([name]) => Number(name.split("_")[0]) < 16)
)

const createdAt = new Date("2026-01-02T03:04:05.000Z")
const old = [
  { id: "sbx_00000000000000000000000a", owner_key_id: "key_a", owner_account_id: "acct_a", uid: 1_000_000 },
  { id: "sbx_00000000000000000000000b", owner_key_id: null, owner_account_id: null, uid: 1_000_001 }
]

/** Sandboxes recorded before migration 16 are `local` ones of their instance, used when made, their uids kept. */
const migratesOldRecords = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* Migrator.make({})({ loader: Migrator.fromRecord(before), table: Migrations.migrationsTable })
  for (const row of old) {
    yield* sql`INSERT INTO sandboxes ${
      sql.insert({ ...row, desktop: true, network: false, created_at: createdAt, instance: "web-1" })
    }`
  }
  const migratedAt = Date.now()
  yield* Migrations.migrate
  const records = yield* Effect.provide(
    Effect.flatMap(Effect.service(SandboxRecords), (store) => store.list),
    SandboxRecords.layer
  )
  // Counted as used when migrated, not when made: none is reclaimed for idleness on the first start.
  for (const record of records) assert.isAtLeast(record.usedAt.getTime(), migratedAt)
  assert.deepStrictEqual(records.map(({ usedAt: _, ...rest }) => rest), [
    {
      id: old[0]!.id,
      ownerKeyId: "key_a",
      ownerAccountId: "acct_a",
      desktop: true,
      network: false,
      backend: "local",
      instance: "web-1",
      createdAt
    },
    {
      id: old[1]!.id,
      ownerKeyId: null,
      desktop: true,
      network: false,
      backend: "local",
      instance: "web-1",
      createdAt
    }
  ])
  const uids = yield* sql<
    { readonly id: string; readonly uid: number }
  >`SELECT id, uid FROM local_sandboxes ORDER BY id`
  assert.deepStrictEqual(uids.map((row) => [row.id, Number(row.uid)]), old.map((row) => [row.id, row.uid]))
  const deployment = yield* Effect.provide(
    Effect.flatMap(Effect.service(SandboxRecords), (store) => store.deployment),
    SandboxRecords.layer
  )
  assert.match(deployment, /^dep_[0-9a-f]{16}$/)
  assert.isTrue(Option.isNone(
    yield* Effect.provide(
      Effect.flatMap(Effect.service(SandboxRecords), (store) => store.get("sbx_00000000000000000000000c")),
      SandboxRecords.layer
    )
  ))
})

describe("migration 16 on SQLite: sandbox records apart from the local backend's uids", () => {
  it.effect("keeps the sandboxes recorded before as local ones", () =>
    migratesOldRecords.pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" }))))
})

describePostgres("migration 16 on Postgres: sandbox records apart from the local backend's uids", () => {
  it.live("keeps the sandboxes recorded before as local ones", () =>
    withFreshSchema((schema) =>
      migratesOldRecords.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(urlWithSchema(schema)) })))
    ))
})
