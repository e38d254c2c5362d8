import { it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { expect } from "vitest"
import { describePostgres } from "../store/postgres.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"
import type { TestGateway } from "../support/gateway.ts"
import { admin, closeAll, inFreshSchema, startInstances } from "./instances.ts"

/**
 * docs/DESIGN.md §6: failed sign-ins are counted for every instance, so
 * guesses spread over instances are slowed as if sent to one. With the
 * default policy, five failures make the next attempt wait 2 s; an instance
 * counting alone would not wait at all.
 */
const PASSWORD = "correct horse battery"

const signIn = async (gateway: TestGateway, email: string, password: string) => {
  const started = Date.now()
  const response = await fetch(`${gateway.url}/admin/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password })
  })
  await response.body?.cancel()
  return { status: response.status, ms: Date.now() - started }
}

/** `counted`: called after the failures, to look where they were counted. */
const failuresOnOneSlowTheOther = async (url: string, counted: () => Promise<void>, redis?: string) => {
  // Instances of one deployment share PARLEY_SECRET_KEY (the throttle's counters are named by an HMAC under it).
  const secretKey = Redacted.make(randomBytes(32).toString("base64"))
  const [a, b] = await startInstances([url, url], undefined, {
    secretKey,
    ...(redis === undefined ? {} : { redisUrl: Redacted.make(redis) })
  })
  try {
    const email = "ana@example.com"
    await admin(a!, "POST", "/accounts", {
      name: "Ana",
      email,
      password: PASSWORD,
      allowedModels: ["*"],
      allowedTools: ["*"]
    })
    // The first attempt on B, before any failure: no wait (scrypt's time alone).
    const fresh = await signIn(b!, email, PASSWORD)
    expect(fresh.status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await signIn(a!, email, "not the password")).status).toBe(401)
    await counted()
    const slowed = await signIn(b!, email, PASSWORD)
    expect(slowed.status).toBe(200)
    expect(slowed.ms).toBeGreaterThanOrEqual(1_950)
    expect(slowed.ms - fresh.ms).toBeGreaterThanOrEqual(1_400)
    // The success on B forgave the email, not this address's failures: A still waits.
    expect((await signIn(a!, email, PASSWORD)).ms).toBeGreaterThanOrEqual(1_950)
  } finally {
    await closeAll([a!, b!])
  }
}

const storedRows = async (sql: SqlClient.SqlClient, schema: string) => {
  const rows = await Effect.runPromise(
    sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql(schema)}.failure_counters`
  )
  return Number(rows[0]!.n)
}

describePostgres("the sign-in throttle across two instances", () => {
  it.live(
    "failures on one instance slow sign-ins on the other, counted in Postgres",
    () =>
      inFreshSchema(async (url, schema, sql) => {
        // Two rows: the email's and the address's; the success clears the email's.
        await failuresOnOneSlowTheOther(url, async () => expect(await storedRows(sql, schema)).toBe(2))
        expect(await storedRows(sql, schema)).toBe(1)
      }),
    60_000
  )

  describeRedis("with Redis", () => {
    it.live(
      "failures on one instance slow sign-ins on the other, counted in Redis",
      () =>
        inFreshSchema(async (url, schema, sql) => {
          await failuresOnOneSlowTheOther(url, async () => expect(await storedRows(sql, schema)).toBe(0), redisUrl)
        }),
      60_000
    )
  })
})
