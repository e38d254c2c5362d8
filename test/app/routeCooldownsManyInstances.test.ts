import { it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import { expect } from "vitest"
import { describePostgres } from "../store/postgres.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"
import { refusing, ROUTE, startFailingProvider } from "../support/failingProvider.ts"
import type { TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { admin, closeAll, inFreshSchema, startInstances, timeUntil } from "./instances.ts"

/**
 * docs/DESIGN.md §15 (issue 22): a route's provider that failed on one
 * instance is skipped by the others within a second, and their operator's
 * view says so: three instances on one Postgres schema, their cooldowns
 * counted in Postgres, or in Redis when `REDIS_URL` is set.
 */
const AT_ONCE = 4

interface ProviderState {
  readonly id: string
  readonly failures: number
  readonly cooledUntil: string | null
}

const stateOf = async (gateway: TestGateway, id: string): Promise<ProviderState> =>
  (await admin(gateway, "GET", "/providers")).providers.find((provider: ProviderState) => provider.id === id)

const countedRows = async (sql: SqlClient.SqlClient, schema: string) => {
  const rows = await Effect.runPromise(
    sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql(schema)}.failure_counters`
  )
  return Number(rows[0]!.n)
}

const seenByTheOthers = async (url: string, schema: string, sql: SqlClient.SqlClient, redis?: string) => {
  // Slow to refuse, so A's chats all try it before the first failure: each failure counts.
  const bad = await startFailingProvider(refusing(200))
  const gateways = await startInstances(
    [url, url, url],
    undefined,
    { routes: bad.routes, ...(redis === undefined ? {} : { redisUrl: Redacted.make(redis) }) },
    bad.providers
  )
  const [a, b, c] = gateways as [TestGateway, TestGateway, TestGateway]
  try {
    const { secret } = await a.createKey()
    const ask = (gateway: TestGateway) =>
      postJson(`${gateway.url}/api/v1/chat`, chatBody({ model: ROUTE }), bearer(secret)).then((response) =>
        expect(response.status).toBe(200)
      )
    expect(await stateOf(b, bad.id)).toEqual({ id: bad.id, models: [`${bad.id}/m1`], failures: 0, cooledUntil: null })

    // A's chats: each tries `bad` three times, then `test/m1` answers; each failure doubles the cooldown.
    await Promise.all(Array.from({ length: AT_ONCE }, () => ask(a)))
    const failedAt = Date.now()
    expect(bad.upstream.requests).toHaveLength(3 * AT_ONCE)

    // B and C show it cooling, as A counted it, and their chats skip it: all within a second.
    const shown = await timeUntil(1_000, async () => {
      const states = await Promise.all([b, c].map((gateway) => stateOf(gateway, bad.id)))
      return states.every((state) => state.failures >= 2 && state.cooledUntil !== null)
    })
    expect(shown).toBeDefined()
    const [onB, onC] = await Promise.all([b, c].map((gateway) => stateOf(gateway, bad.id)))
    expect(onC).toEqual(onB)
    expect(await stateOf(a, bad.id)).toEqual(onB)
    // 2^(failures - 1) s from the last failure: longer than the rest of the test.
    expect(Date.parse(onB!.cooledUntil!)).toBeGreaterThanOrEqual(failedAt + 1_000)
    for (const gateway of [b, c]) {
      const before = gateway.upstream.requests.length
      await ask(gateway)
      expect(gateway.upstream.requests.length).toBe(before + 1)
    }
    expect(Date.now() - failedAt).toBeLessThan(1_000)
    expect(bad.upstream.requests).toHaveLength(3 * AT_ONCE)
    // Counted where the instances share them: one counter in Postgres, or none there with Redis.
    expect(await countedRows(sql, schema)).toBe(redis === undefined ? 1 : 0)
  } finally {
    await closeAll(gateways)
    await bad.upstream.close()
  }
}

describePostgres("a route's cooldown across three instances", () => {
  it.live(
    "one instance's failures are seen by the others within 1 s, counted in Postgres",
    () => inFreshSchema((url, schema, sql) => seenByTheOthers(url, schema, sql)),
    60_000
  )

  describeRedis("with Redis", () => {
    it.live(
      "one instance's failures are seen by the others within 1 s, counted in Redis",
      () => inFreshSchema((url, schema, sql) => seenByTheOthers(url, schema, sql, redisUrl)),
      60_000
    )
  })
})
