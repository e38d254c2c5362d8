import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll } from "vitest"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import { allowListClaim } from "../../src/auth/Introspection.ts"
import * as Database from "../../src/store/Database.ts"
import { type FakeIntrospection, startIntrospection } from "./introspectionServer.ts"

let fake: FakeIntrospection
beforeAll(async () => {
  fake = await startIntrospection()
})
afterAll(() => fake.close())

const keysWith = (url: string) =>
  ApiKeys.layerWith({ introspection: { url, token: Redacted.make("parley-at-idp") } }).pipe(
    Layer.provide(Database.layerFromUrl("sqlite::memory:"))
  )

const authenticate = (token: string) =>
  Effect.flatMap(Effect.service(ApiKeys), (keys) => keys.authenticate(`Bearer ${token}`))

const failure = (token: string) => Effect.map(Effect.flip(authenticate(token)), (error) => error._tag)

const askedFor = (token: string) => fake.asked.filter((entry) => entry.token === token).length

// TestClock starts at 0: `exp` is in seconds since then.
describe("RFC 7662 introspection (docs/DESIGN.md §6)", () => {
  it.effect("admits an active token with its allow-lists under its sub, asking with parley's credentials", () =>
    Effect.gen(function*() {
      fake.answers.set("tok-active", {
        active: true,
        sub: "acct_ext",
        client_id: "crm",
        exp: 3600,
        parley_models: "test/m1  test/*",
        parley_tools: ["bash", 7, "browser"]
      })
      const key = yield* authenticate("tok-active")
      assert.deepStrictEqual(
        { accountId: key.accountId, name: key.name, models: key.allowedModels, tools: key.allowedTools },
        { accountId: "acct_ext", name: "crm", models: ["test/m1", "test/*"], tools: ["bash", "browser"] }
      )
      assert.deepStrictEqual(
        fake.asked.find((entry) => entry.token === "tok-active")?.authorization,
        "Bearer parley-at-idp"
      )
      fake.answers.set("tok-bare", { active: true })
      const bare = yield* authenticate("tok-bare")
      assert.deepStrictEqual([bare.accountId, bare.allowedModels, bare.allowedTools], ["default", [], []])
    }).pipe(Effect.provide(keysWith(fake.url))))

  it.effect("refuses inactive and expired tokens; never sends a local key's shape out", () =>
    Effect.gen(function*() {
      fake.answers.set("tok-inactive", { active: false, sub: "acct_ext" })
      fake.answers.set("tok-expired", { active: true, exp: -1 })
      fake.answers.set("tok-string", { active: "true" })
      for (const token of ["tok-inactive", "tok-expired", "tok-string", "tok-unknown"]) {
        assert.strictEqual(yield* failure(token), "InvalidApiKey")
      }
      const local = `pk_${"a".repeat(43)}`
      assert.strictEqual(yield* failure(local), "InvalidApiKey")
      assert.strictEqual(askedFor(local), 0)
    }).pipe(Effect.provide(keysWith(fake.url))))

  it.effect("caches active answers up to 60 s, never past exp, and inactive ones 5 s", () =>
    Effect.gen(function*() {
      fake.answers.set("tok-cache", { active: true, exp: 3600 })
      fake.answers.set("tok-short", { active: true, exp: 10 })
      fake.answers.set("tok-no", { active: false })
      for (const token of ["tok-cache", "tok-short"]) yield* authenticate(token)
      yield* failure("tok-no")
      yield* TestClock.adjust("4 seconds")
      yield* authenticate("tok-cache")
      yield* failure("tok-no")
      assert.deepStrictEqual([askedFor("tok-cache"), askedFor("tok-no")], [1, 1])
      yield* TestClock.adjust("2 seconds")
      yield* failure("tok-no")
      assert.strictEqual(askedFor("tok-no"), 2)
      yield* TestClock.adjust("5 seconds") // 11 s: past tok-short's exp
      assert.strictEqual(yield* failure("tok-short"), "InvalidApiKey")
      assert.strictEqual(askedFor("tok-short"), 2)
      yield* TestClock.adjust("48 seconds") // 59 s
      yield* authenticate("tok-cache")
      assert.strictEqual(askedFor("tok-cache"), 1)
      yield* TestClock.adjust("2 seconds") // 61 s
      yield* authenticate("tok-cache")
      assert.strictEqual(askedFor("tok-cache"), 2)
    }).pipe(Effect.provide(keysWith(fake.url))))

  it.live(
    "answers 503 when the service is slow (2 s timeout), failing or down; never admits, never caches",
    () =>
      Effect.gen(function*() {
        fake.answers.set("tok-slow", "slow")
        fake.answers.set("tok-fail", "fail")
        const started = Date.now()
        assert.strictEqual(yield* failure("tok-slow"), "AuthServiceUnavailable")
        const waited = Date.now() - started
        assert.isAtLeast(waited, 1_900)
        assert.isBelow(waited, 3_500)
        assert.strictEqual(yield* failure("tok-fail"), "AuthServiceUnavailable")
        fake.answers.set("tok-fail", { active: true })
        yield* authenticate("tok-fail")
      }).pipe(Effect.provide(keysWith(fake.url))),
    10_000
  )

  it.live("answers 503 when nothing listens", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* failure("tok-down"), "AuthServiceUnavailable")
    }).pipe(Effect.provide(keysWith("http://127.0.0.1:9/introspect"))))

  it("reads allow-list claims space- or array-separated; anything else allows nothing", () => {
    assert.deepStrictEqual(allowListClaim(" a  b "), ["a", "b"])
    assert.deepStrictEqual(allowListClaim(["a", "", 3, "b"]), ["a", "b"])
    assert.deepStrictEqual(allowListClaim(undefined), [])
    assert.deepStrictEqual(allowListClaim({ a: 1 }), [])
  })
})
