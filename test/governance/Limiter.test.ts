import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { afterAll, beforeAll } from "vitest"
import { Limiter } from "../../src/governance/Limiter.ts"
import * as Database from "../../src/store/Database.ts"
import { LimitCounters } from "../../src/store/LimitCounters.ts"
import { RedisConnection } from "../../src/store/RedisConnection.ts"
import { redisCounters } from "../../src/store/redisCounters.ts"
import { createSchema, describePostgres } from "../store/postgres.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"
import { limiterSuite, WINDOW_MS } from "./limiterSuite.ts"

const limiterOver = <E>(counters: Layer.Layer<LimitCounters, E>) =>
  Layer.effect(Limiter, Limiter.make(WINDOW_MS)).pipe(Layer.provide(counters))

describe("Limiter over SQLite", { timeout: 30_000 }, () => {
  limiterSuite(() => limiterOver(LimitCounters.layerSql.pipe(Layer.provide(Database.layerFromUrl("sqlite::memory:")))))
})

describePostgres("Limiter over Postgres", () => {
  let schema: Awaited<ReturnType<typeof createSchema>>
  beforeAll(async () => {
    schema = await createSchema()
  })
  afterAll(() => schema.drop())
  limiterSuite(() => limiterOver(LimitCounters.layerSql.pipe(Layer.provide(Database.layerFromUrl(schema.url)))))
})

describeRedis("Limiter over Redis", () => {
  limiterSuite(() =>
    limiterOver(Layer.provide(redisCounters, RedisConnection.make(Redacted.make(redisUrl), "parley:test")))
  )
}, { timeout: 30_000 })
