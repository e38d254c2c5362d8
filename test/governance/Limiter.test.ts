import { describe, it } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { connect } from "node:net"
import { afterAll, beforeAll } from "vitest"
import { Limiter } from "../../src/governance/Limiter.ts"
import * as Database from "../../src/store/Database.ts"
import { LimitCounters } from "../../src/store/LimitCounters.ts"
import { redisCounters } from "../../src/store/redisCounters.ts"
import { createSchema, describePostgres } from "../store/postgres.ts"
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

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"
const redisReachable = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl)
  const socket = connect({ host: hostname, port: Number(port || 6379), timeout: 2_000 })
  const done = (ok: boolean) => {
    socket.destroy()
    resolve(ok)
  }
  socket.once("connect", () => done(true))
  socket.once("timeout", () => done(false))
  socket.once("error", () => done(false))
})

// In CI (`CI=true`) a missing Redis fails loudly, as Postgres does (test/store/postgres.ts).
if (redisReachable) {
  describe("Limiter over Redis", { timeout: 30_000 }, () => {
    limiterSuite(() => limiterOver(redisCounters(Redacted.make(redisUrl))))
  })
} else if (process.env.CI === "true") {
  describe("Limiter over Redis", () => {
    it("needs Redis", () => {
      throw new Error(`Redis is unreachable at ${redisUrl}; CI must provide it`)
    })
  })
} else {
  describe.skip(`Limiter over Redis (skipped: unreachable at ${redisUrl}; required when CI=true)`, () => {})
}
