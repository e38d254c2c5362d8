import { PgClient } from "@effect/sql-pg"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Accounts } from "../../src/auth/Accounts.ts"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import { SecretKey } from "../../src/auth/SecretKey.ts"
import { hashSecret } from "../../src/auth/secrets.ts"
import { Sessions } from "../../src/auth/Sessions.ts"
import { SignInThrottle } from "../../src/auth/SignInThrottle.ts"
import * as Database from "../../src/store/Database.ts"
import { FailureCounters } from "../../src/store/FailureCounters.ts"
import { migrations, migrationsTable } from "../../src/store/Migrations.ts"
import * as SqliteClient from "../../src/store/SqliteClient.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"

const legacySecret = `pk_${"L".repeat(43)}`

/** A database as it was before accounts: migration 1 only, one key in it. */
const legacyDatabase = Effect.gen(function*() {
  yield* Migrator.make({})({
    loader: Migrator.fromRecord({ "1_create_api_keys": migrations["1_create_api_keys"] }),
    table: migrationsTable
  })
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO api_keys ${
    sql.insert({
      id: "key_legacy",
      name: "legacy",
      prefix: legacySecret.slice(0, 12),
      secret_hash: hashSecret(legacySecret),
      status: "active",
      allowed_models: "[\"openai/*\"]",
      allowed_tools: "[\"bash\"]",
      created_at: new Date("2025-01-02T03:04:05.000Z"),
      last_used_at: null,
      expires_at: null
    })
  }`
})

const services = (url: string) => {
  const database = Database.layerFromUrl(url)
  const accounts = Accounts.layer.pipe(Layer.provide(database))
  return Layer.mergeAll(
    ApiKeys.layerWith({ cacheTtl: 0 }).pipe(Layer.provide(database)),
    accounts,
    Sessions.layer.pipe(
      Layer.provide(Layer.effect(SignInThrottle, SignInThrottle.make({ baseDelayMs: 1 }))),
      Layer.provide([accounts, SecretKey.layerTest, FailureCounters.layerSql.pipe(Layer.provide(database)), database])
    )
  )
}

/** The same story on SQLite and Postgres. */
const story = (url: string) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(services(url))
    const keys = Context.get(context, ApiKeys)
    const accounts = Context.get(context, Accounts)
    const sessions = Context.get(context, Sessions)

    // The migration moved the old key to `default`, which admits everything: it works as before.
    const legacy = yield* keys.authenticate(`Bearer ${legacySecret}`)
    assert.deepStrictEqual([legacy.accountId, legacy.allowedModels, legacy.allowedTools], [
      "default",
      ["openai/*"],
      ["bash"]
    ])
    assert.strictEqual((yield* keys.get("key_legacy")).createdAt.toISOString(), "2025-01-02T03:04:05.000Z")

    const ana = yield* accounts.create({
      name: "Ana",
      email: " Ana@Example.com",
      password: "correct horse battery",
      allowedModels: ["openai/gpt-4o", "anthropic/*"],
      allowedTools: ["bash", "browser"]
    })
    assert.match(ana.id, /^acct_[0-9a-f]{16}$/)
    assert.strictEqual(ana.email, "ana@example.com")
    assert.deepStrictEqual(yield* accounts.get(ana.id), ana)
    assert.strictEqual((yield* Effect.flip(accounts.create({ ...ana, email: "ANA@example.com" })))._tag, "EmailTaken")
    assert.deepStrictEqual((yield* accounts.list).map((account) => account.id), ["default", ana.id])

    // key ∩ account: the key's `*` narrows to the account's lists.
    const { key, secret } = yield* keys.create({
      name: "k",
      allowedModels: ["*"],
      allowedTools: ["bash", "chat_message"],
      accountId: ana.id
    })
    const seen = yield* keys.authenticate(`Bearer ${secret}`)
    assert.deepStrictEqual([seen.allowedModels, seen.allowedTools], [["openai/gpt-4o", "anthropic/*"], ["bash"]])
    assert.deepStrictEqual((yield* keys.list(ana.id)).map((k) => k.id), [key.id])

    // Disabled: its keys answer 401, its holder cannot sign in.
    yield* accounts.update(ana.id, { status: "disabled" })
    assert.strictEqual((yield* Effect.flip(keys.authenticate(`Bearer ${secret}`)))._tag, "InvalidApiKey")
    const signIn = { email: "ana@example.com", password: "correct horse battery", address: "10.0.0.1" }
    assert.strictEqual((yield* Effect.flip(sessions.signIn(signIn)))._tag, "SignInFailed")
    yield* accounts.update(ana.id, { status: "active" })
    yield* keys.authenticate(`Bearer ${secret}`)

    // Sessions: verified while live, CSRF bound to the session, gone once signed out.
    const session = yield* sessions.signIn(signIn)
    assert.strictEqual((yield* sessions.verify(session.token)).accountId, ana.id)
    assert.isTrue(sessions.checkCsrf(session.token, session.csrfToken))
    assert.isFalse(sessions.checkCsrf(session.token, `${session.csrfToken}x`))
    assert.isFalse(sessions.checkCsrf(session.token, undefined))
    assert.strictEqual(
      (yield* Effect.flip(sessions.signIn({ ...signIn, password: "wrong one!" })))._tag,
      "SignInFailed"
    )
    yield* sessions.signOut(session.token)
    assert.strictEqual((yield* Effect.flip(sessions.verify(session.token)))._tag, "InvalidAdminCredentials")

    // Rotation with grace: both secrets work, then only the new one.
    const rotated = yield* keys.rotate(key.id, 1)
    yield* keys.authenticate(`Bearer ${secret}`)
    yield* keys.authenticate(`Bearer ${rotated.secret}`)
    yield* Effect.sleep("1100 millis")
    assert.strictEqual((yield* Effect.flip(keys.authenticate(`Bearer ${secret}`)))._tag, "InvalidApiKey")
    yield* keys.authenticate(`Bearer ${rotated.secret}`)

    // Edits keep their timestamps.
    const expiresAt = new Date("2031-05-06T07:08:09.000Z")
    const updated = yield* keys.update(key.id, { allowedTools: [], expiresAt })
    assert.deepStrictEqual([updated.allowedTools, updated.expiresAt?.toISOString()], [[], expiresAt.toISOString()])
  }).pipe(Effect.scoped)

describe("accounts on SQLite", () => {
  it.live("migrate old keys to default; own keys, narrow them, sign in, rotate with grace", () => {
    const url = `sqlite:${join(mkdtempSync(join(tmpdir(), "parley-accounts-")), "parley.db")}`
    return legacyDatabase.pipe(
      Effect.provide(SqliteClient.layer({ filename: url.slice("sqlite:".length) })),
      Effect.andThen(story(url))
    )
  }, 20_000)
})

describePostgres("accounts on Postgres", () => {
  it.live(
    "migrate old keys to default; own keys, narrow them, sign in, rotate with grace",
    () =>
      withFreshSchema((schema) =>
        legacyDatabase.pipe(
          Effect.provide(PgClient.layer({ url: Redacted.make(urlWithSchema(schema)) })),
          Effect.andThen(story(urlWithSchema(schema)))
        )
      ),
    20_000
  )
})
