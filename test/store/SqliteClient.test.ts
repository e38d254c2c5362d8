import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { vi } from "vitest"
import * as SqliteClient from "../../src/store/SqliteClient.ts"

const memory = SqliteClient.layer({ filename: ":memory:" })

const createTable = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, flag INTEGER, at TEXT)`
  return sql
})

describe("SqliteClient", () => {
  it.effect("binds parameters and returns rows", () =>
    Effect.gen(function*() {
      const sql = yield* createTable
      const at = new Date("2024-05-06T07:08:09.000Z")
      yield* sql`INSERT INTO items ${sql.insert({ id: 1, name: "a'b", flag: true, at })}`
      yield* sql`INSERT INTO items ${sql.insert({ id: 2, name: "c", flag: false, at: null })}`
      const rows = yield* sql<{ id: number; name: string; flag: number; at: string | null }>`
        SELECT id, name, flag, at FROM items WHERE id IN ${sql.in([1, 2])} ORDER BY id`
      assert.deepStrictEqual(rows.map((row) => ({ ...row })), [
        { id: 1, name: "a'b", flag: 1, at: "2024-05-06T07:08:09.000Z" },
        { id: 2, name: "c", flag: 0, at: null }
      ])
      const values = yield* sql`SELECT id, name FROM items ORDER BY id`.values
      assert.deepStrictEqual(values, [[1, "a'b"], [2, "c"]])
      const streamed = yield* Stream.runCollect(sql<{ id: number }>`SELECT id FROM items ORDER BY id`.stream)
      assert.deepStrictEqual(Array.from(streamed, (row) => row.id), [1, 2])
    }).pipe(Effect.provide(memory)))

  it.effect("classifies a unique violation", () =>
    Effect.gen(function*() {
      const sql = yield* createTable
      yield* sql`INSERT INTO items (id, name) VALUES (1, 'x')`
      const error = yield* Effect.flip(sql`INSERT INTO items (id, name) VALUES (2, 'x')`)
      assert.strictEqual(error.reason._tag, "UniqueViolation")
      const syntax = yield* Effect.flip(sql.unsafe("SELEC nonsense"))
      assert.strictEqual(syntax._tag, "SqlError")
    }).pipe(Effect.provide(memory)))

  it.effect("commits and rolls back transactions, with savepoints for nesting", () =>
    Effect.gen(function*() {
      const sql = yield* createTable
      yield* sql.withTransaction(sql`INSERT INTO items (id, name) VALUES (1, 'kept')`)
      const failed = yield* Effect.exit(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items (id, name) VALUES (2, 'lost')`
        return yield* Effect.fail("boom")
      })))
      assert.isTrue(Exit.isFailure(failed))
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items (id, name) VALUES (3, 'outer')`
        yield* Effect.ignore(sql.withTransaction(Effect.andThen(
          sql`INSERT INTO items (id, name) VALUES (4, 'inner')`,
          Effect.fail("inner fails")
        )))
      }))
      const names = yield* sql<{ name: string }>`SELECT name FROM items ORDER BY id`
      assert.deepStrictEqual(names.map((row) => row.name), ["kept", "outer"])
    }).pipe(Effect.provide(memory)))

  it.effect("serialises concurrent statements on the one connection", () =>
    Effect.gen(function*() {
      const sql = yield* createTable
      yield* Effect.forEach(
        Array.from({ length: 50 }, (_, i) => i),
        (i) => sql.withTransaction(sql`INSERT INTO items (id, name) VALUES (${i}, ${`n${i}`})`),
        { concurrency: "unbounded" }
      )
      const [row] = yield* sql<{ n: number }>`SELECT count(*) AS n FROM items`
      assert.strictEqual(row?.n, 50)
    }).pipe(Effect.provide(memory)))

  it.effect("keeps short statements prepared, not the long text of a multi-row insert", () =>
    Effect.gen(function*() {
      const sql = yield* createTable
      const prepare = vi.spyOn(DatabaseSync.prototype, "prepare")
      const prepared = (text: string) => prepare.mock.calls.filter(([sqlText]) => sqlText.includes(text)).length
      const item = (i: number) => ({ id: i, name: `n${i}`, flag: 1, at: null })
      // 300 rows: an insert text of ~3,000 characters.
      const batch = [item(0), ...Array.from({ length: 299 }, (_, i) => item(i + 1))] as const
      yield* Effect.ensuring(
        Effect.gen(function*() {
          for (let round = 0; round < 2; round++) {
            yield* sql`DELETE FROM items`
            yield* sql`INSERT INTO items ${sql.insert(batch)}`
            yield* sql`SELECT count(*) AS n FROM items WHERE flag = ${1}`
          }
          assert.strictEqual(prepared("SELECT count(*)"), 1)
          assert.strictEqual(prepared("INSERT INTO items"), 2)
        }),
        Effect.sync(() => prepare.mockRestore())
      )
    }).pipe(Effect.provide(memory)))

  it.effect("creates the folder of a file database, enables WAL and keeps temporary data in memory", () =>
    Effect.gen(function*() {
      const filename = join(mkdtempSync(join(tmpdir(), "parley-sqlite-")), "nested", "db.sqlite")
      const [mode, temp] = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return [
          yield* sql<{ journal_mode: string }>`PRAGMA journal_mode`,
          // 2: MEMORY.
          yield* sql<{ temp_store: number }>`PRAGMA temp_store`
        ] as const
      }).pipe(Effect.provide(SqliteClient.layer({ filename })))
      assert.strictEqual(mode[0]?.journal_mode, "wal")
      assert.strictEqual(temp[0]?.temp_store, 2)
      assert.isTrue(existsSync(filename))
    }))

  it.effect("shares a file between two clients", () =>
    Effect.gen(function*() {
      const filename = join(mkdtempSync(join(tmpdir(), "parley-sqlite-")), "db.sqlite")
      const first = SqliteClient.layer({ filename })
      const second = SqliteClient.layer({ filename })
      yield* createTable.pipe(
        Effect.flatMap((sql) => sql`INSERT INTO items (id, name) VALUES (1, 'from first')`),
        Effect.provide(first)
      )
      const rows = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ name: string }>`SELECT name FROM items`
      }).pipe(Effect.provide(second))
      assert.deepStrictEqual(rows.map((row) => row.name), ["from first"])
    }))
})
