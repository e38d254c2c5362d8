import { it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { describe, expect } from "vitest"
import { Budgets } from "../../src/governance/Budgets.ts"
import { UsageLedger } from "../../src/ledger/UsageLedger.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

/**
 * docs/DESIGN.md §11: a token budget holds under concurrent requests, on one
 * instance and across several sharing their counters. Every answer uses 100
 * tokens; a call reserves its prompt (a few tokens) plus the output cap of
 * 100, so a budget of 5,000 takes at most 50 answers, and at least the 45 or
 * so whose reservations fit side by side.
 */
const BUDGET = 5_000
const REQUESTS = 200

const startInstances = async (count: number, databaseUrl: string, redis?: string) => {
  const gateways: Array<TestGateway> = []
  for (let i = 0; i < count; i++) {
    const gateway = await startGateway({
      databaseUrl,
      maxOutputTokens: 100,
      ...(redis === undefined ? {} : { config: { redisUrl: Redacted.make(redis) } })
    })
    gateway.upstream.respondWith(() => ({
      type: "text",
      text: "ok",
      usage: { promptTokens: 10, completionTokens: 90 },
      delayMs: 5
    }))
    gateways.push(gateway)
  }
  return gateways
}

const floodAndCheck = async (gateways: ReadonlyArray<TestGateway>) => {
  try {
    const { id, secret } = await gateways[0]!.createKey({ limits: { tokensPerDay: BUDGET } })
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const response = await postJson(`${gateways[i % gateways.length]!.url}/api/v1/chat`, chatBody(), bearer(secret))
        const body = await response.json()
        return { status: response.status, finishReason: body.data?.finishReason, limit: body.details?.limit }
      })
    )
    for (const answer of answers) {
      if (answer.status === 429) expect(answer.limit).toBe("tokensPerDay")
      else expect([answer.status, answer.finishReason]).toEqual([200, "stop"])
    }
    const answered = answers.filter((answer) => answer.status === 200).length
    expect(answered).toBeGreaterThanOrEqual(40)
    expect(answered).toBeLessThanOrEqual(BUDGET / 100)

    await Promise.all(
      gateways.map((gateway) => gateway.run(Effect.flatMap(Effect.service(UsageLedger), (l) => l.flush)))
    )
    const rows = await gateways[0]!.ledgerRows({ keyId: id })
    expect(rows).toHaveLength(REQUESTS)
    const spent = rows.reduce((sum, row) => sum + (row.totalTokens ?? 0), 0)
    expect(spent).toBe(answered * 100)
    expect(spent).toBeLessThanOrEqual(BUDGET)
    expect(rows.filter((row) => row.refusedLimit === "tokensPerDay")).toHaveLength(REQUESTS - answered)
    // Every reservation settled: the counter holds exactly what the ledger says was used.
    const budgets = gateways[0]!.service(Budgets)
    const used = await gateways[0]!.run(budgets.budgetUsed(`key:${id}`, "tokensPerDay", Date.now()))
    expect(used.used).toBe(spent)
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.close()))
  }
}

describe("a token budget under 200 concurrent requests", { timeout: 120_000 }, () => {
  it.live("on one instance over SQLite", () =>
    Effect.promise(async () => floodAndCheck(await startInstances(1, "sqlite::memory:"))))
})

describePostgres("a token budget under 200 concurrent requests on three instances", () => {
  it.live(
    "sharing Postgres alone",
    () =>
      withFreshSchema((schema) =>
        Effect.promise(async () => floodAndCheck(await startInstances(3, urlWithSchema(schema))))
      ),
    120_000
  )

  describeRedis("and Redis", () => {
    it.live(
      "sharing Postgres and Redis",
      () =>
        withFreshSchema((schema) =>
          Effect.promise(async () => floodAndCheck(await startInstances(3, urlWithSchema(schema), redisUrl)))
        ),
      120_000
    )
  })
})
