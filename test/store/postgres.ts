import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { describeNeeding, reachable } from "./realService.ts"

/**
 * Real Postgres for tests. In CI (`CI=true`) an unreachable server fails the
 * suite loudly; elsewhere those tests are skipped with a message saying why.
 */
export const postgresUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"

export const postgresReachable = await reachable(postgresUrl, 5432)

/** `describe` for tests that need Postgres. */
export const describePostgres = describeNeeding("Postgres", postgresUrl, postgresReachable)

/** A fresh schema name, so concurrent runs never share tables. */
export const uniqueSchema = (): string => `parley_test_${randomBytes(6).toString("hex")}`

/** The test database URL with `search_path` set to `schema`. */
export const urlWithSchema = (schema: string): string => {
  const url = new URL(postgresUrl)
  url.searchParams.set("options", `-c search_path=${schema}`)
  return url.toString()
}

/** Runs `use` with a fresh schema that is dropped afterwards, whatever happens. */
export const withFreshSchema = <A, E, R>(use: (schema: string) => Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const schema = uniqueSchema()
    const admin = yield* SqlClient.SqlClient
    yield* admin.unsafe(`CREATE SCHEMA ${schema}`)
    yield* Effect.addFinalizer(() => Effect.orDie(admin.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
    return yield* use(schema)
  }).pipe(Effect.scoped, Effect.provide(PgClient.layer({ url: Redacted.make(postgresUrl) })))

/** A fresh schema for tests that hold a database across `beforeAll`/`afterAll`: its URL, and `drop` to remove it. */
export const createSchema = async (): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  const schema = uniqueSchema()
  const admin = (statement: string) =>
    Effect.runPromise(
      Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe(statement)).pipe(
        Effect.provide(PgClient.layer({ url: Redacted.make(postgresUrl) }))
      )
    )
  await admin(`CREATE SCHEMA ${schema}`)
  return { url: urlWithSchema(schema), drop: () => admin(`DROP SCHEMA ${schema} CASCADE`).then(() => undefined) }
}
