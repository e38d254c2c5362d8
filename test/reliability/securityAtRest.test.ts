import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, describe, expect, it } from "vitest"
import { postgresUrl, uniqueSchema, urlWithSchema } from "../store/postgres.ts"
import { startGateway } from "../support/gateway.ts"

/**
 * Security matrix, keys at rest: an API key's secret appears nowhere in the
 * store — not in any column of any table, not in the SQLite file or its WAL,
 * not in any Postgres table — only its hash does (README, CLI).
 */
const made: Array<string> = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

/** The random part of a `pk_…` secret: what must never be stored. */
const randomPart = (secret: string) => secret.slice(secret.indexOf("_") + 1)

describe("security: keys at rest", () => {
  it("SQLite holds hashes only: no secret in any table, the file or its WAL", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-rel-keys-"))
    made.push(dir)
    const file = join(dir, "parley.db")
    const gateway = await startGateway({ databaseUrl: `sqlite:${file}` })
    const secrets = await Promise.all([gateway.createKey(), gateway.createKey({ models: ["test/m1"] })])
    await gateway.close()

    const database = new DatabaseSync(file, { readOnly: true })
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<
      { name: string }
    >
    const dump = tables.map(({ name }) => JSON.stringify(database.prepare(`SELECT * FROM "${name}"`).all())).join("\n")
    database.close()
    const files = readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString("latin1")).join("\n")
    for (const { id, secret } of secrets) {
      expect(dump).toContain(id)
      expect(dump).not.toContain(randomPart(secret))
      expect(files).not.toContain(randomPart(secret))
    }
  })

  it("Postgres holds hashes only: no secret in any table", async () => {
    const schema = uniqueSchema()
    const psql = (sql: string) => execFileSync("psql", [postgresUrl, "-At", "-c", sql], { encoding: "utf8" })
    psql(`CREATE SCHEMA ${schema}`)
    try {
      const gateway = await startGateway({ databaseUrl: urlWithSchema(schema) })
      const { id, secret } = await gateway.createKey()
      await gateway.close()
      const tables = psql(`SELECT table_name FROM information_schema.tables WHERE table_schema = '${schema}'`)
        .split("\n")
        .filter((name) => name !== "")
      expect(tables.length).toBeGreaterThan(0)
      const dump = tables.map((table) => psql(`SELECT row_to_json(t) FROM ${schema}."${table}" t`)).join("\n")
      expect(dump).toContain(id)
      expect(dump).not.toContain(randomPart(secret))
    } finally {
      psql(`DROP SCHEMA ${schema} CASCADE`)
    }
  })
})
