import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { createHash } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Accounts } from "../../src/auth/Accounts.ts"
import { ApiKeys, type ApiKeysOptions } from "../../src/auth/ApiKeys.ts"
import type { KeyNotFound, KeyRevoked } from "../../src/auth/authErrors.ts"
import * as Database from "../../src/store/Database.ts"

const tempDatabase = () => `sqlite:${join(mkdtempSync(join(tmpdir(), "parley-keys-")), "parley.db")}`

/** ApiKeys plus the raw SqlClient (to look inside the table), on one database. */
const keysOn = (url: string, options: ApiKeysOptions = {}) =>
  ApiKeys.layerWith(options).pipe(Layer.provideMerge(Database.layerFromUrl(url)))

const unauthorized = (authorization: string | undefined) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const error = yield* Effect.flip(keys.authenticate(authorization))
    assert.include(["MissingAuthorization", "InvalidAuthorizationFormat", "InvalidApiKey"], error._tag)
    return error.message
  })

const newKey = (input: { expiresAt?: Date } = {}) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    return yield* keys.create({ name: "test", allowedModels: ["openai/*"], allowedTools: ["bash"], ...input })
  })

/** A separate ApiKeys instance (as in another process), alive for the test. */
const instanceOn = (url: string) => Effect.map(Layer.build(keysOn(url)), Context.get(ApiKeys))

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

// Lets forked work (the last-used write) run under the test clock.
const settle = Effect.repeat(Effect.yieldNow, { times: 20 })

describe("ApiKeys.authenticate", () => {
  it.effect("answers each 401 with the spec's message", () =>
    Effect.gen(function*() {
      const { secret } = yield* newKey()
      assert.strictEqual(yield* unauthorized(undefined), "Missing authorization header")
      assert.strictEqual(yield* unauthorized("  "), "Missing authorization header")
      const format = "Invalid authorization format. Use: Bearer <token>"
      for (
        const header of [secret, `Basic ${secret}`, "Bearer", "Bearer ", `Bearer ${secret} extra`, `Token ${secret}`]
      ) {
        assert.strictEqual(yield* unauthorized(header), format, header)
      }
      const invalid = "Invalid or expired API key"
      for (const token of ["nope", "pk_short", `pk_${"A".repeat(43)}`, `${secret}x`, secret.toUpperCase()]) {
        assert.strictEqual(yield* unauthorized(`Bearer ${token}`), invalid, token)
      }
    }).pipe(Effect.provide(keysOn("sqlite::memory:"))))

  it.effect("accepts an active key and returns its record, never its hash", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const created = yield* newKey()
      const key = yield* keys.authenticate(`Bearer ${created.secret}`)
      // The key a request sees also carries its account's limits (docs/DESIGN.md §11).
      assert.deepStrictEqual(key, { ...created.key, accountLimits: {} })
      assert.deepStrictEqual(key.allowedModels, ["openai/*"])
      assert.notProperty(key, "secretHash")
      assert.strictEqual((yield* keys.authenticate(`bearer  ${created.secret}`)).id, key.id)
    }).pipe(Effect.provide(keysOn("sqlite::memory:"))))

  it.effect("takes an x-api-key value when Authorization is absent, never over it", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const { key, secret } = yield* newKey()
      assert.strictEqual((yield* keys.authenticate(undefined, secret)).id, key.id)
      assert.strictEqual((yield* keys.authenticate(" ", ` ${secret} `)).id, key.id)
      const refused = (authorization: string | undefined, apiKey: string) =>
        Effect.map(Effect.flip(keys.authenticate(authorization, apiKey)), (error) => error.message)
      assert.strictEqual(yield* refused(undefined, " "), "Missing authorization header")
      assert.strictEqual(yield* refused(undefined, `${secret}x`), "Invalid or expired API key")
      // A present Authorization header decides, whatever x-api-key says.
      assert.strictEqual(yield* refused("Bearer nope", secret), "Invalid or expired API key")
      assert.strictEqual(yield* refused(secret, secret), "Invalid authorization format. Use: Bearer <token>")
    }).pipe(Effect.provide(keysOn("sqlite::memory:"))))

  it.effect("rejects inactive and revoked keys; revocation is final", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const { key, secret } = yield* newKey()
      const header = `Bearer ${secret}`
      yield* keys.authenticate(header)
      assert.strictEqual((yield* keys.setStatus(key.id, "inactive")).status, "inactive")
      assert.strictEqual(yield* unauthorized(header), "Invalid or expired API key")
      yield* keys.setStatus(key.id, "active")
      assert.strictEqual((yield* keys.authenticate(header)).status, "active")
      yield* keys.setStatus(key.id, "revoked")
      assert.strictEqual(yield* unauthorized(header), "Invalid or expired API key")
      assert.strictEqual((yield* Effect.flip(keys.setStatus(key.id, "active")))._tag, "KeyRevoked")
      assert.strictEqual((yield* Effect.flip(keys.rotate(key.id)))._tag, "KeyRevoked")
      assert.strictEqual((yield* keys.get(key.id)).status, "revoked")
      assert.strictEqual(yield* unauthorized(header), "Invalid or expired API key")
    }).pipe(Effect.provide(keysOn("sqlite::memory:"))))

  it.effect("rejects a key once it expires", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2030-01-01T00:00:00Z"))
      const keys = yield* ApiKeys
      const { secret } = yield* newKey({ expiresAt: new Date("2030-01-02T00:00:00Z") })
      yield* keys.authenticate(`Bearer ${secret}`)
      yield* TestClock.adjust("1 day")
      assert.strictEqual(yield* unauthorized(`Bearer ${secret}`), "Invalid or expired API key")
    }).pipe(Effect.provide(keysOn("sqlite::memory:"))))

  it.effect("sees a revocation made by another instance within 5 s, and serves repeats from memory", () =>
    Effect.gen(function*() {
      const url = tempDatabase()
      const server = yield* instanceOn(url)
      const cli = yield* instanceOn(url)
      const { key, secret } = yield* cli.create({ name: "shared", allowedModels: ["*"], allowedTools: [] })
      const header = `Bearer ${secret}`
      yield* server.authenticate(header)
      yield* cli.setStatus(key.id, "revoked")
      // Within the cache lifetime the server answers without asking the database.
      yield* server.authenticate(header)
      yield* TestClock.adjust("5 seconds")
      const error = yield* Effect.flip(server.authenticate(header))
      assert.strictEqual(error.message, "Invalid or expired API key")
    }))

  it.effect("drops an account's cached keys as soon as the account changes in this process", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const accounts = yield* Accounts
      const account = yield* accounts.create({
        name: "Ana",
        email: "ana@example.com",
        allowedModels: ["*"],
        allowedTools: []
      })
      const { secret } = yield* keys.create({
        name: "ana's",
        allowedModels: ["*"],
        allowedTools: [],
        accountId: account.id
      })
      assert.deepStrictEqual((yield* keys.authenticate(`Bearer ${secret}`)).allowedModels, ["*"])
      // The entry would be kept a minute: only the change announcement can drop it.
      yield* accounts.update(account.id, { allowedModels: ["openai/*"] })
      assert.deepStrictEqual((yield* keys.authenticate(`Bearer ${secret}`)).allowedModels, ["openai/*"])
      yield* accounts.update(account.id, { status: "disabled" })
      assert.strictEqual(yield* unauthorized(`Bearer ${secret}`), "Invalid or expired API key")
    }).pipe(
      Effect.provide(
        Layer.merge(ApiKeys.layerWith({ cacheTtl: "1 minute" }), Accounts.layer).pipe(
          Layer.provide(Database.layerFromUrl("sqlite::memory:"))
        )
      )
    ))

  it.effect("caches unknown keys briefly too", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const sql = yield* SqlClient.SqlClient
      const { key, secret } = yield* newKey()
      const rotated = yield* keys.rotate(key.id)
      yield* unauthorized(`Bearer ${secret}`)
      // Put the old secret back behind the service's back: the miss is still cached.
      yield* sql`UPDATE api_keys SET secret_hash = ${sha256(secret)} WHERE id = ${key.id}`
      yield* unauthorized(`Bearer ${secret}`)
      yield* TestClock.adjust("2 seconds")
      assert.strictEqual((yield* keys.authenticate(`Bearer ${secret}`)).id, key.id)
      assert.notStrictEqual(rotated.secret, secret)
    }).pipe(Effect.provide(keysOn(tempDatabase()))))

  it.effect("records last use at most once a minute, off the request path", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2030-01-01T00:00:00Z"))
      const keys = yield* ApiKeys
      const sql = yield* SqlClient.SqlClient
      const { key, secret } = yield* newKey()
      const lastUsed = Effect.map(
        sql<{ last_used_at: string | null }>`SELECT last_used_at FROM api_keys WHERE id = ${key.id}`,
        (rows) => rows[0]?.last_used_at
      )
      assert.isNull(yield* lastUsed)
      yield* keys.authenticate(`Bearer ${secret}`)
      yield* settle
      assert.strictEqual(yield* lastUsed, "2030-01-01T00:00:00.000Z")
      yield* TestClock.adjust("30 seconds")
      yield* keys.authenticate(`Bearer ${secret}`)
      yield* settle
      assert.strictEqual(yield* lastUsed, "2030-01-01T00:00:00.000Z")
      yield* TestClock.adjust("31 seconds")
      yield* keys.authenticate(`Bearer ${secret}`)
      yield* settle
      assert.strictEqual(yield* lastUsed, "2030-01-01T00:01:01.000Z")
      assert.deepStrictEqual((yield* keys.get(key.id)).lastUsedAt, new Date("2030-01-01T00:01:01.000Z"))
    }).pipe(Effect.provide(keysOn("sqlite::memory:"))))
})

describe("ApiKeys management", () => {
  it.effect("stores only the hash of a secret", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { key, secret } = yield* newKey()
      assert.match(secret, /^pk_[A-Za-z0-9_-]{43}$/)
      assert.strictEqual(key.prefix, secret.slice(0, 12))
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM api_keys`
      assert.strictEqual(rows.length, 1)
      const stored = JSON.stringify(rows)
      assert.notInclude(stored, secret)
      assert.notInclude(stored, secret.slice(12))
      assert.strictEqual(rows[0]?.secret_hash, sha256(secret))
    }).pipe(Effect.provide(keysOn("sqlite::memory:"))))

  it.effect("rotates: same id and allow-lists, old secret stops working", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const { key, secret } = yield* newKey()
      yield* keys.authenticate(`Bearer ${secret}`)
      const rotated = yield* keys.rotate(key.id)
      assert.strictEqual(rotated.key.id, key.id)
      assert.deepStrictEqual(rotated.key.allowedModels, key.allowedModels)
      assert.deepStrictEqual(rotated.key.allowedTools, key.allowedTools)
      assert.strictEqual(rotated.key.prefix, rotated.secret.slice(0, 12))
      assert.strictEqual(yield* unauthorized(`Bearer ${secret}`), "Invalid or expired API key")
      assert.strictEqual((yield* keys.authenticate(`Bearer ${rotated.secret}`)).id, key.id)
    }).pipe(Effect.provide(keysOn("sqlite::memory:"))))

  it.effect("lists, gets, and reports unknown ids as KeyNotFound", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const first = yield* newKey()
      yield* TestClock.adjust("1 second")
      const second = yield* newKey()
      assert.deepStrictEqual((yield* keys.list()).map((k) => k.id), [first.key.id, second.key.id])
      assert.deepStrictEqual(yield* keys.get(second.key.id), second.key)
      const missing: ReadonlyArray<Effect.Effect<unknown, KeyNotFound | KeyRevoked>> = [
        keys.get("key_nope"),
        keys.setStatus("key_nope", "active"),
        keys.rotate("key_nope")
      ]
      for (const attempt of missing) {
        const error = yield* Effect.flip(attempt)
        assert.strictEqual(error._tag, "KeyNotFound")
        if (error._tag !== "KeyNotFound") continue
        assert.strictEqual(error.message, "No key with id key_nope")
      }
    }).pipe(Effect.provide(keysOn("sqlite::memory:"))))

  it.effect("layerTest is a working, private database", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const { secret } = yield* newKey()
      assert.strictEqual((yield* keys.list()).length, 1)
      yield* keys.authenticate(`Bearer ${secret}`)
    }).pipe(Effect.provide(ApiKeys.layerTest)))
})
