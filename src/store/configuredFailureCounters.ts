import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { AppConfig } from "../config/AppConfig.ts"
import { FailureCounters } from "./FailureCounters.ts"
import { RedisConnection } from "./RedisConnection.ts"
import { redisFailures } from "./redisFailures.ts"

/** The failure counters every instance shares: in Redis when `REDIS_URL` is set, else in the SQL store. */
export const configuredFailureCounters: Layer.Layer<FailureCounters, never, AppConfig | SqlClient.SqlClient> = Layer
  .unwrap(Effect.gen(function*() {
    const { redisUrl } = yield* AppConfig
    const counters: Layer.Layer<FailureCounters, never, AppConfig | SqlClient.SqlClient> = redisUrl === undefined
      ? FailureCounters.layerSql
      : Layer.provide(redisFailures, RedisConnection.layer)
    return counters
  }))
