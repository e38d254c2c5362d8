import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { createClient } from "redis"
import { afterAll, beforeAll } from "vitest"
import * as Database from "../../src/store/Database.ts"
import { FailureCounters } from "../../src/store/FailureCounters.ts"
import { RedisConnection } from "../../src/store/RedisConnection.ts"
import { redisFailures } from "../../src/store/redisFailures.ts"
import { createSchema, describePostgres } from "./postgres.ts"
import { describeRedis, redisUrl } from "./redis.ts"

const QUIET = 60_000
const fresh = () => `c_${randomBytes(6).toString("hex")}`

/** The same tests over every backend (SQLite, Postgres, Redis): docs/DESIGN.md §6. */
const suite = <R, E>(name: string, counters: Layer.Layer<FailureCounters | R, E>) =>
  layer(counters, { timeout: "60 seconds" })(name, (it) => {
    it.effect("counts per counter, reads the most of several, forgets what went quiet, and clears", () =>
      Effect.gen(function*() {
        const store = yield* FailureCounters
        const [a, b] = [fresh(), fresh()]
        const t = Date.now()
        assert.strictEqual(yield* store.most([a, b], QUIET, t), 0)
        yield* store.add([a, b], QUIET, t)
        yield* store.add([a], QUIET, t + 1)
        yield* store.add([a], QUIET, t + 2)
        assert.deepStrictEqual(
          [yield* store.most([a, b], QUIET, t + 2), yield* store.most([b], QUIET, t + 2)],
          [3, 1]
        )
        // Quiet from t + 2 on: gone at t + 2 + QUIET, and a new failure starts again at 1.
        assert.strictEqual(yield* store.most([a], QUIET, t + 1 + QUIET), 3)
        assert.strictEqual(yield* store.most([a], QUIET, t + 2 + QUIET), 0)
        yield* store.add([a], QUIET, t + 2 + QUIET)
        assert.strictEqual(yield* store.most([a], QUIET, t + 2 + QUIET), 1)
        yield* store.clear([a, b])
        assert.strictEqual(yield* store.most([a, b], QUIET, t + 2 + QUIET), 0)
      }))

    it.effect("counts every one of many failures added at once", () =>
      Effect.gen(function*() {
        const store = yield* FailureCounters
        const counter = fresh()
        const t = Date.now()
        yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => i), (i) => store.add([counter], QUIET, t + i), {
          concurrency: "unbounded"
        })
        assert.strictEqual(yield* store.most([counter], QUIET, t + 20), 20)
      }))
  })

/** SQL: a failure deletes the rows gone quiet, so the table holds only live counts. */
const sqlSuite = (name: string, database: Layer.Layer<SqlClient.SqlClient, unknown>) => {
  const counters = FailureCounters.layerSql.pipe(Layer.provideMerge(database))
  suite(name, counters)
  layer(counters)(`${name}: storage`, (it) => {
    it.effect("deletes the rows gone quiet when a failure is added", () =>
      Effect.gen(function*() {
        const store = yield* FailureCounters
        const sql = yield* SqlClient.SqlClient
        const [old, recent] = [fresh(), fresh()]
        const t = Date.now()
        yield* store.add([old], QUIET, t)
        yield* store.add([recent], QUIET, t + QUIET)
        const rows = yield* sql<{ readonly counter: string }>`
          SELECT counter FROM failure_counters WHERE counter IN ${sql.in([old, recent])}`
        assert.deepStrictEqual(rows.map((row) => row.counter), [recent])
      }))
  })
}

sqlSuite("FailureCounters over SQLite", Database.layerFromUrl("sqlite::memory:"))

describePostgres("FailureCounters over Postgres", () => {
  let schema: Awaited<ReturnType<typeof createSchema>>
  beforeAll(async () => {
    schema = await createSchema()
  })
  afterAll(() => schema.drop())
  // Built lazily: the schema exists only once beforeAll ran.
  sqlSuite("counters", Layer.unwrap(Effect.sync(() => Database.layerFromUrl(schema.url))))
})

describeRedis("FailureCounters over Redis", () => {
  const counters = Layer.provide(redisFailures, RedisConnection.make(Redacted.make(redisUrl), "parley:test"))
  suite("counters", counters)
  layer(counters)("storage", (it) => {
    it.effect("a key expires once its count has gone quiet", () =>
      Effect.gen(function*() {
        const store = yield* FailureCounters
        const counter = fresh()
        yield* store.add([counter], QUIET, Date.now())
        const ttl = yield* Effect.promise(async () => {
          const observer = await createClient({ url: redisUrl }).connect()
          try {
            return await observer.pTTL(`parley:failures:${counter}`)
          } finally {
            await observer.close()
          }
        })
        assert.isTrue(ttl > QUIET - 5_000 && ttl <= QUIET, `TTL ${ttl}`)
      }))
  })
})
