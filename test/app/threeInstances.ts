import { it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import type { AppConfig } from "../../src/config/AppConfig.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"

const startThree = async (databaseUrl: string, config: Partial<AppConfig["Service"]>) => {
  const gateways: Array<TestGateway> = []
  for (let i = 0; i < 3; i++) gateways.push(await startGateway({ databaseUrl, config }))
  return gateways
}

/**
 * The suite `name`: `run` given three fresh instances (which it closes) on a
 * fresh Postgres schema alone, and on one with Redis (docs/DESIGN.md §16).
 */
export const describeThreeInstances = (
  name: string,
  run: (gateways: Array<TestGateway>) => Promise<void>,
  config: Partial<AppConfig["Service"]> = {}
) =>
  describePostgres(name, () => {
    it.live(
      "sharing Postgres alone",
      () =>
        withFreshSchema((schema) => Effect.promise(async () => run(await startThree(urlWithSchema(schema), config)))),
      60_000
    )

    describeRedis("and Redis", () => {
      it.live(
        "sharing Postgres and Redis",
        () =>
          withFreshSchema((schema) =>
            Effect.promise(async () =>
              run(await startThree(urlWithSchema(schema), { ...config, redisUrl: Redacted.make(redisUrl) }))
            )
          ),
        60_000
      )
    })
  })
