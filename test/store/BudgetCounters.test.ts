import { Effect, Layer, Redacted } from "effect"
import { afterAll, beforeAll } from "vitest"
import { BudgetCounters } from "../../src/store/BudgetCounters.ts"
import * as Database from "../../src/store/Database.ts"
import { redisBudgets } from "../../src/store/redisBudgets.ts"
import { RedisConnection } from "../../src/store/RedisConnection.ts"
import { budgetCountersSuite } from "./budgetCountersSuite.ts"
import { createSchema, describePostgres } from "./postgres.ts"
import { describeRedis, redisUrl } from "./redis.ts"

budgetCountersSuite(
  "BudgetCounters over SQLite",
  BudgetCounters.layerSql.pipe(Layer.provide(Database.layerFromUrl("sqlite::memory:")))
)

describePostgres("BudgetCounters over Postgres", () => {
  let schema: Awaited<ReturnType<typeof createSchema>>
  beforeAll(async () => {
    schema = await createSchema()
  })
  afterAll(() => schema.drop())
  // Built lazily: the schema exists only once beforeAll ran.
  budgetCountersSuite(
    "counters",
    Layer.unwrap(Effect.sync(() => BudgetCounters.layerSql.pipe(Layer.provide(Database.layerFromUrl(schema.url)))))
  )
})

describeRedis("BudgetCounters over Redis", () => {
  budgetCountersSuite(
    "counters",
    Layer.provide(redisBudgets, RedisConnection.make(Redacted.make(redisUrl), "parley:test"))
  )
})
