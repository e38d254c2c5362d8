import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { AppConfig } from "../config/AppConfig.ts"
import type { ChangeFeed } from "./ChangeFeed.ts"
import { RedisConnection } from "./RedisConnection.ts"
import { redisRunStreams } from "./redisRunStreams.ts"
import type { RunStreams } from "./RunStreams.ts"
import { sqlRunStreams } from "./sqlRunStreams.ts"

/** The kept streams every instance shares: in Redis when `REDIS_URL` is set, else in the SQL store. */
export const configuredRunStreams: Layer.Layer<RunStreams, never, AppConfig | SqlClient.SqlClient | ChangeFeed> = Layer
  .unwrap(
    Effect.gen(function*() {
      const { redisUrl } = yield* AppConfig
      const streams: Layer.Layer<RunStreams, never, AppConfig | SqlClient.SqlClient | ChangeFeed> =
        redisUrl === undefined
          ? sqlRunStreams
          : Layer.provide(redisRunStreams, RedisConnection.layer)
      return streams
    })
  )
