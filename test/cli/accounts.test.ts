import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { Accounts } from "../../src/auth/Accounts.ts"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import * as Database from "../../src/store/Database.ts"
import { freshDatabase, ok, parley, parleyWith } from "./cliRun.ts"

/** The same database as the server would open it. */
const services = (database: string) =>
  Effect.map(
    Layer.build(
      Layer.merge(ApiKeys.layerWith({ cacheTtl: 0 }), Accounts.layer).pipe(
        Layer.provide(Database.layerFromUrl(`sqlite:${database}`))
      )
    ),
    (context) => ({ keys: Context.get(context, ApiKeys), accounts: Context.get(context, Accounts) })
  )

const secretOf = (stdout: string) => JSON.parse(stdout) as { id: string; key: string }

describe("parley accounts and account-owned keys", () => {
  it.live("creates and lists accounts; a password from stdin lets the holder sign in", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      const created = yield* parleyWith(
        database,
        "correct horse battery\n",
        "accounts",
        "create",
        "--name",
        "Ana",
        "--email",
        "ana@example.com",
        "--models",
        "test/*",
        "--password-stdin",
        "--json"
      )
      assert.strictEqual(created.code, 0, created.stderr)
      const account = JSON.parse(created.stdout)
      assert.deepStrictEqual([account.email, account.allowedModels, account.allowedTools], [
        "ana@example.com",
        ["test/*"],
        ["*"]
      ])
      const listed = JSON.parse((yield* ok(database, "accounts", "list", "--json")).stdout)
      assert.deepStrictEqual(listed.map((a: { id: string }) => a.id), ["default", account.id])
      const table = (yield* ok(database, "accounts", "list")).stdout
      assert.include(table, "ana@example.com")
      const again = yield* parley(database, "accounts", "create", "--name", "A", "--email", "ANA@example.com")
      assert.notStrictEqual(again.code, 0)
      assert.include(again.stderr, "already exists")
      const short = yield* parleyWith(
        database,
        "short",
        "accounts",
        "create",
        "--name",
        "B",
        "--email",
        "b@x.io",
        "--password-stdin"
      )
      assert.notStrictEqual(short.code, 0)
      const { accounts } = yield* services(database)
      assert.strictEqual((yield* accounts.verifySignIn("ana@example.com", "correct horse battery")).id, account.id)
    }).pipe(Effect.scoped), 60_000)

  it.live("keys create --account, keys update, keys rotate --grace", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      const account = JSON.parse(
        (yield* ok(
          database,
          "accounts",
          "create",
          "--name",
          "Bo",
          "--email",
          "bo@x.io",
          "--models",
          "openai/gpt-5",
          "--json"
        ))
          .stdout
      )
      const wider = yield* parley(
        database,
        "keys",
        "create",
        "--name",
        "k",
        "--account",
        account.id,
        "--models",
        "openai/*"
      )
      assert.notStrictEqual(wider.code, 0)
      assert.include(wider.stderr, "openai/*")
      const missing = yield* parley(database, "keys", "create", "--name", "k", "--account", "acct_nope")
      assert.include(missing.stderr, "acct_nope")
      const key = secretOf(
        (yield* ok(
          database,
          "keys",
          "create",
          "--name",
          "k",
          "--account",
          account.id,
          "--models",
          "openai/gpt-5",
          "--json"
        ))
          .stdout
      )
      const { keys } = yield* services(database)
      assert.strictEqual((yield* keys.get(key.id)).accountId, account.id)

      yield* ok(database, "keys", "update", key.id, "--tools", "bash", "--expires-in", "3")
      const updated = yield* keys.get(key.id)
      assert.deepStrictEqual([updated.allowedModels, updated.allowedTools], [["openai/gpt-5"], ["bash"]])
      assert.isTrue(updated.expiresAt !== null && updated.expiresAt.getTime() > Date.now() + 2 * 86_400_000)
      assert.notStrictEqual((yield* parley(database, "keys", "update", key.id, "--models", "anthropic/*")).code, 0)

      const rotated = secretOf((yield* ok(database, "keys", "rotate", key.id, "--grace", "60", "--json")).stdout)
      yield* keys.authenticate(`Bearer ${key.key}`)
      yield* keys.authenticate(`Bearer ${rotated.key}`)
      const last = secretOf((yield* ok(database, "keys", "rotate", key.id, "--json")).stdout)
      for (const old of [key.key, rotated.key]) {
        assert.strictEqual((yield* Effect.flip(keys.authenticate(`Bearer ${old}`)))._tag, "InvalidApiKey")
      }
      yield* keys.authenticate(`Bearer ${last.key}`)
      const oneSecond = (yield* ok(database, "keys", "rotate", key.id, "--grace", "1")).stdout
      assert.include(oneSecond, "The previous secret keeps working for 1 second; the allow-lists are unchanged.")
      assert.notStrictEqual((yield* parley(database, "keys", "rotate", key.id, "--grace", "-5")).code, 0)
    }).pipe(Effect.scoped), 90_000)
})
