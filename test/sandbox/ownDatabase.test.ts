import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import * as Database from "../../src/store/Database.ts"
import * as SqliteClient from "../../src/store/SqliteClient.ts"
import { createSchema, describePostgres } from "../store/postgres.ts"
import { startGateway } from "../support/gateway.ts"
import { bearer } from "../support/http.ts"
import { createSandbox } from "./chat.ts"
import { dataDirectory, testLimits } from "./support.ts"

/**
 * A gateway whose sandbox provider keeps its records in a database of its
 * own: that database gets its tables when the gateway starts, whichever
 * engine each one uses, and the records land there, not in the gateway's.
 */

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const sandboxesOn = (root: string, databaseUrl: string) =>
  SandboxProvider.layerTest({ root, limits: testLimits }).pipe(Layer.provide(Database.layerFromUrl(databaseUrl)))

const sandboxIds = (sql: SqlClient.SqlClient) =>
  Effect.map(sql<{ id: string }>`SELECT id FROM sandboxes`, (rows) => rows.map((row) => row.id))

const sandboxIdsIn = (sql: SqlClient.SqlClient) => Effect.runPromise(sandboxIds(sql))

const sandboxIdsAt = (databaseUrl: string) =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(SqlClient.SqlClient), sandboxIds).pipe(
      Effect.provide(Database.layerFromUrl(databaseUrl))
    )
  )

/** Starts a gateway on `gatewayDatabase` with sandboxes recorded in `sandboxDatabase`, then creates, lists and shows one. */
const recordsInItsOwnDatabase = async (gatewayDatabase: string | undefined, sandboxDatabase: string) => {
  const { base, sandboxes: root } = dataDirectory()
  cleanups.push(() => rmSync(base, { recursive: true, force: true }))
  const gateway = await startGateway({
    ...(gatewayDatabase === undefined ? {} : { databaseUrl: gatewayDatabase }),
    sandboxes: sandboxesOn(root, sandboxDatabase)
  })
  cleanups.push(() => gateway.close())
  const { secret } = await gateway.createKey()

  const empty = await fetch(`${gateway.url}/api/v1/sandboxes`, { headers: bearer(secret) })
  expect(empty.status).toBe(200)
  expect((await empty.json()).data.sandboxes).toEqual([])

  const sandbox = await createSandbox(gateway, secret)
  const listed = await (await fetch(`${gateway.url}/api/v1/sandboxes`, { headers: bearer(secret) })).json()
  expect(listed.data.sandboxes.map((each: { id: string }) => each.id)).toEqual([sandbox.id])
  expect((await fetch(`${gateway.url}/api/v1/sandboxes/${sandbox.id}`, { headers: bearer(secret) })).status).toBe(200)

  expect(await sandboxIdsAt(sandboxDatabase)).toEqual([sandbox.id])
  expect(await sandboxIdsIn(gateway.service(SqlClient.SqlClient))).toEqual([])
}

describe("sandboxes on a database of their own", () => {
  it("a fresh SQLite file beside a gateway on another SQLite database gets its tables at start", async () => {
    const { base, data } = dataDirectory()
    cleanups.push(() => rmSync(base, { recursive: true, force: true }))
    await recordsInItsOwnDatabase(undefined, `sqlite:${join(data, "sandboxes.db")}`)
  })

  it("one that cannot be given its tables stops the gateway from starting, saying why", async () => {
    const { base, data, sandboxes: root } = dataDirectory()
    cleanups.push(() => rmSync(base, { recursive: true, force: true }))
    // Another program's database, whose own `sandboxes` table is in the way.
    const foreign = `sqlite:${join(data, "other.db")}`
    await Effect.runPromise(
      Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql`CREATE TABLE sandboxes (name TEXT)`).pipe(
        Effect.provide(SqliteClient.layer({ filename: join(data, "other.db") }))
      )
    )
    const started = startGateway({ sandboxes: sandboxesOn(root, foreign) })
    await expect(started).rejects.toMatchObject({
      _tag: "MigrationError",
      message: expect.stringContaining("sandboxes")
    })
    await expect(started).rejects.toMatchObject({
      cause: { reason: { cause: { message: expect.stringContaining("table sandboxes already exists") } } }
    })
  })
})

describePostgres("sandboxes on a database of their own, with Postgres", () => {
  it("a fresh SQLite file beside a gateway on Postgres gets its tables at start", async () => {
    const gatewaySchema = await createSchema()
    cleanups.push(gatewaySchema.drop)
    const { base, data } = dataDirectory()
    cleanups.push(() => rmSync(base, { recursive: true, force: true }))
    await recordsInItsOwnDatabase(gatewaySchema.url, `sqlite:${join(data, "sandboxes.db")}`)
  })

  it("a fresh Postgres schema beside a gateway on SQLite gets its tables at start", async () => {
    const sandboxSchema = await createSchema()
    cleanups.push(sandboxSchema.drop)
    await recordsInItsOwnDatabase(undefined, sandboxSchema.url)
  })
})
