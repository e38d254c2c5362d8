import { assert, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll } from "vitest"
import { SecretKey } from "../../src/auth/SecretKey.ts"
import { type Attempt, SignInThrottle, type ThrottleOptions } from "../../src/auth/SignInThrottle.ts"
import * as Database from "../../src/store/Database.ts"
import { FailureCounters } from "../../src/store/FailureCounters.ts"
import { RedisConnection } from "../../src/store/RedisConnection.ts"
import { redisFailures } from "../../src/store/redisFailures.ts"
import { createSchema, describePostgres } from "../store/postgres.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"

const unique = () => randomBytes(4).toString("hex")
const email = () => `user-${unique()}@example.com`
const address = () => `10.0.${unique()}`

/** The throttle over the suite's counters, with the counter names it passes to them. */
const throttleWith = (options: ThrottleOptions) =>
  Effect.gen(function*() {
    const counters = yield* FailureCounters
    const names = new Set<string>()
    const seen = (counter: ReadonlyArray<string>) => counter.forEach((name) => names.add(name))
    const recording = FailureCounters.of({
      most: (counter, quietMs, now) => (seen(counter), counters.most(counter, quietMs, now)),
      add: (counter, quietMs, now) => (seen(counter), counters.add(counter, quietMs, now)),
      clear: (counter) => (seen(counter), counters.clear(counter)),
      latest: (counter, quietMs, now) => (seen(counter), counters.latest(counter, quietMs, now))
    })
    const throttle = yield* SignInThrottle.make(options).pipe(Effect.provideService(FailureCounters, recording))
    const waitMs = (attempt: Attempt) => Effect.map(throttle.delayFor(attempt), Duration.toMillis)
    return { throttle, waitMs, names }
  })

/** The policy over every backend (SQLite, Postgres, Redis): docs/DESIGN.md §6. */
const suite = <E>(name: string, counters: Layer.Layer<FailureCounters, E>) =>
  layer(Layer.merge(counters, SecretKey.layerTest), { timeout: "60 seconds" })(name, (it) => {
    it.effect("lets the first failures pass, then doubles the wait up to the ceiling", () =>
      Effect.gen(function*() {
        const { throttle, waitMs } = yield* throttleWith({ freeFailures: 2, baseDelayMs: 100, maxDelayMs: 350 })
        const attempt = { email: email(), address: address() }
        const waits = []
        for (let i = 0; i < 5; i++) {
          waits.push(yield* waitMs(attempt))
          yield* throttle.failed(attempt)
        }
        assert.deepStrictEqual(waits, [0, 0, 100, 200, 350])
      }))

    it.effect("slows an address trying other emails, and an email tried from other addresses", () =>
      Effect.gen(function*() {
        const { throttle, waitMs } = yield* throttleWith({ freeFailures: 1, baseDelayMs: 100 })
        const [ana, bo, here, there] = [email(), email(), address(), address()]
        yield* throttle.failed({ email: ana, address: here })
        assert.deepStrictEqual([
          yield* waitMs({ email: bo, address: here }),
          yield* waitMs({ email: ` ${ana.toUpperCase()}`, address: there }),
          yield* waitMs({ email: bo, address: there })
        ], [100, 100, 0])
      }))

    it.effect("a success forgets its email's failures, not its address's, and adds none", () =>
      Effect.gen(function*() {
        const { throttle, waitMs } = yield* throttleWith({ freeFailures: 2, baseDelayMs: 100 })
        const [a, b, c, own, next] = [email(), email(), email(), email(), email()]
        const [here, elsewhere] = [address(), address()]
        for (const guessed of [a, a, b, c]) yield* throttle.failed({ email: guessed, address: here })
        assert.strictEqual(yield* waitMs({ email: next, address: here }), 400)
        assert.strictEqual(yield* waitMs({ email: a, address: elsewhere }), 100)

        // The attacker signs in to an account of their own: the address's guesses still count.
        yield* throttle.succeeded({ email: own, address: here })
        assert.strictEqual(yield* waitMs({ email: next, address: here }), 400)
        assert.strictEqual(yield* waitMs({ email: own, address: here }), 400)

        // A's owner gets the password right: A is forgiven everywhere, the address is not.
        yield* throttle.succeeded({ email: a, address: here })
        assert.strictEqual(yield* waitMs({ email: a, address: elsewhere }), 0)
        assert.strictEqual(yield* waitMs({ email: a, address: here }), 400)
        yield* throttle.failed({ email: a, address: elsewhere })
        assert.strictEqual(yield* waitMs({ email: a, address: elsewhere }), 0)
      }))

    it.effect("forgets after a quiet quarter hour, successes or not, then counts from one again", () =>
      Effect.gen(function*() {
        const { throttle, waitMs } = yield* throttleWith({ freeFailures: 1, baseDelayMs: 100 })
        const attempt = { email: email(), address: address() }
        yield* throttle.failed(attempt)
        yield* throttle.failed(attempt)
        yield* TestClock.adjust("14 minutes")
        yield* throttle.succeeded(attempt)
        assert.strictEqual(yield* waitMs({ ...attempt, email: email() }), 200)
        yield* TestClock.adjust("1 minute")
        assert.strictEqual(yield* waitMs({ ...attempt, email: email() }), 0)
        yield* throttle.failed(attempt)
        assert.strictEqual(yield* waitMs(attempt), 100)
      }))

    it.effect("names its counters by a hash, never by the email or the address", () =>
      Effect.gen(function*() {
        const { throttle, names } = yield* throttleWith({})
        const attempt = { email: email(), address: address() }
        yield* throttle.failed(attempt)
        assert.strictEqual(names.size, 2)
        for (const name of names) {
          assert.match(name, /^[0-9a-f]{64}$/)
          assert.notInclude(name, attempt.email)
          assert.notInclude(name, attempt.address)
        }
      }))
  })

suite(
  "SignInThrottle over SQLite",
  FailureCounters.layerSql.pipe(Layer.provide(Database.layerFromUrl("sqlite::memory:")))
)

describePostgres("SignInThrottle over Postgres", () => {
  let schema: Awaited<ReturnType<typeof createSchema>>
  beforeAll(async () => {
    schema = await createSchema()
  })
  afterAll(() => schema.drop())
  // Built lazily: the schema exists only once beforeAll ran.
  suite(
    "throttle",
    Layer.unwrap(Effect.sync(() => FailureCounters.layerSql.pipe(Layer.provide(Database.layerFromUrl(schema.url)))))
  )
})

describeRedis("SignInThrottle over Redis", () => {
  suite("throttle", Layer.provide(redisFailures, RedisConnection.make(Redacted.make(redisUrl), "parley:test")))
})
