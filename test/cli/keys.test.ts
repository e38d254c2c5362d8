import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import { existsSync } from "node:fs"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import * as Database from "../../src/store/Database.ts"
import { freshDatabase, ok, parley } from "./cliRun.ts"

const secretPattern = /pk_[A-Za-z0-9_-]{43}/g

const createJson = (database: string, ...args: ReadonlyArray<string>) =>
  Effect.map(
    ok(database, "keys", "create", "--json", ...args),
    (run) => JSON.parse(run.stdout) as { id: string; key: string }
  )

const listJson = (database: string) =>
  Effect.map(ok(database, "keys", "list", "--json"), (run) => JSON.parse(run.stdout) as Array<Record<string, unknown>>)

/** Checks a secret against the same database, as the server would. */
const authenticate = (database: string, secret: string) =>
  Effect.gen(function*() {
    const keys = Context.get(
      yield* Layer.build(ApiKeys.layer.pipe(Layer.provide(Database.layerFromUrl(`sqlite:${database}`)))),
      ApiKeys
    )
    return yield* Effect.result(keys.authenticate(`Bearer ${secret}`))
  }).pipe(Effect.scoped)

// Each test has its own database, so they run side by side; each spawns several processes.
describe.concurrent("parley keys", { timeout: 120_000 }, () => {
  it.effect("create prints a working secret once, with a warning; list never shows it", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      const created = yield* ok(
        database,
        "keys",
        "create",
        "--name",
        "recruiter",
        "--models",
        "openai/*, openai/gpt-5",
        "--tools",
        "browser,chat_message"
      )
      const secrets = created.stdout.match(secretPattern) ?? []
      assert.strictEqual(secrets.length, 1)
      const secret = secrets[0] ?? ""
      assert.include(created.stdout, "shown only this once")
      assert.include(created.stdout, "cannot be shown again")
      const id = /id:\s+(key_[0-9a-f]+)/.exec(created.stdout)?.[1]
      assert.isDefined(id)

      const auth = yield* authenticate(database, secret)
      assert.isTrue(auth._tag === "Success" && auth.success.id === id)

      const table = yield* ok(database, "keys", "list")
      const hash = createHash("sha256").update(secret).digest("hex")
      for (const text of [table.stdout, JSON.stringify(yield* listJson(database))]) {
        assert.notInclude(text, secret)
        assert.notInclude(text, hash)
      }
      for (const column of ["ID", "NAME", "PREFIX", "STATUS", "MODELS", "TOOLS", "CREATED", "LAST USED", "EXPIRES"]) {
        assert.include(table.stdout, column)
      }
      assert.include(table.stdout, id ?? "")
      assert.include(table.stdout, secret.slice(0, 12))
      assert.include(table.stdout, "openai/*,openai/gpt-5")
      assert.include(table.stdout, "browser,chat_message")
    }))

  it.effect("create --json prints exactly {id, key} and nothing else", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      const run = yield* ok(database, "keys", "create", "--name", "ci", "--models", "*", "--json")
      assert.strictEqual(run.stdout.trim().split("\n").length, 1)
      const printed = JSON.parse(run.stdout) as Record<string, string>
      assert.deepStrictEqual(Object.keys(printed), ["id", "key"])
      assert.match(printed.key ?? "", /^pk_[A-Za-z0-9_-]{43}$/)
      const [listed] = yield* listJson(database)
      assert.strictEqual(listed?.id, printed.id)
      assert.deepStrictEqual(listed?.allowedModels, ["*"])
      assert.deepStrictEqual(listed?.allowedTools, [])
      assert.isNull(listed?.expiresAt)
    }))

  it.effect("omitted or empty lists allow nothing; --expires-in sets the expiry", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      yield* createJson(database, "--name", "none", "--models", "", "--expires-in", "30")
      const [listed] = yield* listJson(database)
      assert.deepStrictEqual([listed?.allowedModels, listed?.allowedTools], [[], []])
      const days = (Date.parse(String(listed?.expiresAt)) - Date.now()) / 86_400_000
      assert.isTrue(days > 29.9 && days <= 30, `expires in ${days} days`)
    }))

  it.effect("deactivate, activate and revoke change what authenticates", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      const { id, key } = yield* createJson(database, "--name", "k", "--models", "*")
      const status = Effect.map(listJson(database), (keys) => keys[0]?.status)

      assert.include((yield* ok(database, "keys", "deactivate", id)).stdout, "inactive")
      assert.strictEqual(yield* status, "inactive")
      assert.strictEqual((yield* authenticate(database, key))._tag, "Failure")

      yield* ok(database, "keys", "activate", id)
      assert.strictEqual(yield* status, "active")
      assert.strictEqual((yield* authenticate(database, key))._tag, "Success")

      assert.include((yield* ok(database, "keys", "revoke", id)).stdout, "cannot be undone")
      assert.strictEqual(yield* status, "revoked")
      const again = yield* parley(database, "keys", "activate", id)
      assert.notStrictEqual(again.code, 0)
      assert.include(again.stderr, `Key ${id} is revoked and cannot be activated.`)
      assert.strictEqual(yield* status, "revoked")
      assert.strictEqual((yield* authenticate(database, key))._tag, "Failure")
    }))

  it.effect("rotate prints a new secret once; the old one stops working", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      const { id, key: oldSecret } = yield* createJson(
        database,
        "--name",
        "r",
        "--models",
        "openai/*",
        "--tools",
        "bash"
      )
      const rotated = yield* ok(database, "keys", "rotate", id)
      const secrets = rotated.stdout.match(secretPattern) ?? []
      assert.strictEqual(secrets.length, 1)
      assert.notStrictEqual(secrets[0], oldSecret)
      assert.include(rotated.stdout, "shown only this once")
      assert.strictEqual((yield* authenticate(database, oldSecret))._tag, "Failure")
      const auth = yield* authenticate(database, secrets[0] ?? "")
      assert.isTrue(auth._tag === "Success" && auth.success.id === id)
      assert.deepStrictEqual((yield* listJson(database))[0]?.allowedTools, ["bash"])
      assert.notInclude((yield* ok(database, "keys", "list")).stdout, secrets[0] ?? "")
    }))

  it.effect("an unknown id says what to do and exits non-zero", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      for (const command of ["activate", "deactivate", "revoke", "rotate"]) {
        const run = yield* parley(database, "keys", command, "key_missing")
        assert.strictEqual(run.code, 1, command)
        assert.include(run.stderr, "No key with id key_missing. Run `parley keys list` to see ids.")
        assert.strictEqual(run.stdout, "")
      }
    }))

  it.effect("works on a fresh database and refuses bad lists before touching it", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      const bad = yield* parley(database, "keys", "create", "--name", "x", "--models", "gpt-4o")
      assert.strictEqual(bad.code, 1)
      assert.include(bad.stderr, `"gpt-4o" is not a model pattern`)
      const tool = yield* parley(database, "keys", "create", "--name", "x", "--tools", "shell")
      assert.include(tool.stderr, `unknown tool "shell"`)
      assert.isFalse(existsSync(database))

      assert.include((yield* ok(database, "keys", "list")).stdout, "No API keys yet")
      assert.isTrue(existsSync(database))
    }))
})
