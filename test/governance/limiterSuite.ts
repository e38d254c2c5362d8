import { assert, it } from "@effect/vitest"
import { Effect, Exit, type Layer } from "effect"
import { randomBytes } from "node:crypto"
import type { ApiKey } from "../../src/domain/ApiKey.ts"
import type { Limits } from "../../src/domain/Limits.ts"
import { Limiter } from "../../src/governance/Limiter.ts"
import type { LimitExceeded } from "../../src/governance/limitErrors.ts"
import { makeKey } from "../support/keys.ts"

/** The window the suite counts in: short, so an honest Retry-After can be waited out. */
export const WINDOW_MS = 1_000

const fresh = (limits: Limits, accountLimits: Limits = {}, accountId = `acct_${randomBytes(6).toString("hex")}`) =>
  makeKey({ id: `key_${randomBytes(6).toString("hex")}`, accountId, limits, accountLimits })

const refusal = (key: ApiKey) =>
  Effect.flatMap(
    Effect.exit(Effect.flatMap(Effect.service(Limiter), (l) => l.admit(key))),
    (exit) =>
      Exit.isFailure(exit)
        ? Effect.succeed(exit.cause.reasons.map((r) => (r as { error?: LimitExceeded }).error)[0]!)
        : Effect.die("admitted")
  )

const consumption = (...args: Parameters<Limiter["Service"]["consumption"]>) =>
  Effect.flatMap(Effect.service(Limiter), (limiter) => limiter.consumption(...args))

const admit = (key: ApiKey) => Effect.flatMap(Effect.service(Limiter), (limiter) => limiter.admit(key))

/** The same tests over any counters (SQLite, Postgres, Redis): docs/DESIGN.md §11. */
export const limiterSuite = <E>(limiter: () => Layer.Layer<Limiter, E>) => {
  it.live("admits requestsPerMinute exactly, refuses the next, and a retry after Retry-After succeeds", () =>
    Effect.gen(function*() {
      const key = fresh({ requestsPerMinute: 3 })
      const headers = []
      for (let i = 0; i < 3; i++) headers.push((yield* admit(key))!.headers)
      assert.deepStrictEqual(headers.map((h) => h["ratelimit-remaining"]), ["2", "1", "0"])
      assert.strictEqual(headers[0]!["ratelimit-limit"], "3")
      assert.strictEqual(headers[0]!["ratelimit-reset"], "1")
      const refused = yield* refusal(key)
      assert.strictEqual(refused._tag, "LimitExceeded")
      assert.strictEqual(refused.limit, "requestsPerMinute")
      assert.strictEqual(refused.scope, "key")
      assert.strictEqual(refused.retryAfterSeconds, 1)
      assert.isTrue(Date.parse(refused.resetAt!) > Date.now())
      yield* Effect.sleep(refused.retryAfterSeconds * 1000)
      assert.strictEqual((yield* admit(key))!.headers["ratelimit-remaining"], "2")
    }).pipe(Effect.provide(limiter())))

  it.live("admits concurrentRequests exactly, refuses the next without resetAt, and frees on release", () =>
    Effect.gen(function*() {
      const key = fresh({ concurrentRequests: 2 })
      const first = (yield* admit(key))!
      const second = (yield* admit(key))!
      assert.strictEqual(second.headers["ratelimit-remaining"], "0")
      const refused = yield* refusal(key)
      assert.strictEqual(refused.limit, "concurrentRequests")
      assert.isUndefined(refused.resetAt)
      yield* first.release
      const third = (yield* admit(key))!
      yield* second.release
      yield* third.release
      // All released: both places free again.
      yield* Effect.forEach([yield* admit(key), yield* admit(key)], (a) => a!.release)
    }).pipe(Effect.provide(limiter())))

  it.live("counts an account's limit over all its keys, in scope account; a refusal holds no place", () =>
    Effect.gen(function*() {
      const one = fresh({}, { requestsPerMinute: 2 })
      const two = fresh({ concurrentRequests: 2 }, { requestsPerMinute: 2 }, one.accountId)
      yield* admit(one)
      const second = (yield* admit(two))!
      // The account's window (0 of 2 left) is closer to exhaustion than the key's places (1 of 2).
      assert.strictEqual(second.headers["ratelimit-remaining"], "0")
      const refused = yield* refusal(two)
      assert.deepStrictEqual([refused.limit, refused.scope], ["requestsPerMinute", "account"])
      yield* second.release
      yield* Effect.sleep(refused.retryAfterSeconds * 1000)
      // Had the refusal kept its place in flight, the key would have 0 of 2 left, not 1.
      const later = (yield* admit(two))!
      assert.strictEqual(later.headers["ratelimit-remaining"], "1")
      yield* later.release
    }).pipe(Effect.provide(limiter())))

  it.live("reads consumption without counting: any number of reads leaves every limit as it was", () =>
    Effect.gen(function*() {
      const limits = { requestsPerMinute: 3, concurrentRequests: 4, tokensPerDay: 100 }
      const key = fresh(limits, { requestsPerMinute: 5 })
      assert.deepStrictEqual(yield* consumption("key", key.id, limits), {
        requestsPerMinute: { used: 0, limit: 3 },
        concurrentRequests: { used: 0, limit: 4 }
      })
      const before = Date.now()
      const first = (yield* admit(key))!
      for (let i = 0; i < 5; i++) yield* consumption("key", key.id, limits)
      const read = yield* consumption("key", key.id, limits)
      assert.deepStrictEqual([read.requestsPerMinute?.used, read.concurrentRequests?.used], [1, 1])
      const resetAt = Date.parse(read.requestsPerMinute!.resetAt!)
      assert.isTrue(resetAt >= before + WINDOW_MS && resetAt <= Date.now() + WINDOW_MS)
      assert.isUndefined(read.concurrentRequests!.resetAt)
      // The account's own scope counted the same request (a moment later).
      const account = (yield* consumption("account", key.accountId, { requestsPerMinute: 5 })).requestsPerMinute!
      assert.deepStrictEqual([account.used, account.limit], [1, 5])
      assert.isTrue(Math.abs(Date.parse(account.resetAt!) - resetAt) < 500)
      // Reads took nothing: the two places left in the window are still there, then the next is refused.
      const second = (yield* admit(key))!
      const third = (yield* admit(key))!
      assert.strictEqual(third.headers["ratelimit-remaining"], "0")
      assert.strictEqual((yield* refusal(key)).limit, "requestsPerMinute")
      assert.strictEqual((yield* consumption("key", key.id, limits)).concurrentRequests?.used, 3)
      yield* Effect.forEach([first, second, third], (a) => a.release)
      assert.strictEqual((yield* consumption("key", key.id, limits)).concurrentRequests?.used, 0)
      // A scope without counted limits reads nothing.
      assert.deepStrictEqual(yield* consumption("key", key.id, { tokensPerDay: 100 }), {})
    }).pipe(Effect.provide(limiter())))

  it.live("admits a key without limits, or with budgets only, without a counter or headers", () =>
    Effect.gen(function*() {
      assert.isUndefined(yield* admit(fresh({})))
      assert.isUndefined(yield* admit(fresh({ tokensPerDay: 1 }, { costPerMonthUsd: 1 })))
    }).pipe(Effect.provide(limiter())))
}
