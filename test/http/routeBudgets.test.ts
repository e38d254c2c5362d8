import { it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect } from "vitest"
import type { ModelPricing } from "../../src/config/AppConfig.ts"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Reply, Upstream } from "../../src/demo/upstream/types.ts"
import { Budgets } from "../../src/governance/Budgets.ts"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

/**
 * docs/DESIGN.md §11 and §15: a route has no price of its own, so a routed
 * run reserves against a cost budget as its dearest target would, and 100
 * concurrent routed requests cannot pass a monthly budget. A token costs
 * $0.001 on `test/m1` and $0.002 on `alt/m1`; the route balances between
 * them; every answer uses 100 tokens and a call reserves its prompt (a few
 * tokens) plus the output cap of 100, at $0.002: about $0.23.
 */
const BUDGET = 5
const REQUESTS = 100
const CAP = 100
const cheap: ModelPricing = { inputPerMTok: 1_000, outputPerMTok: 1_000 }
const dear: ModelPricing = { inputPerMTok: 2_000, outputPerMTok: 2_000 }
const ANSWER: Reply = { type: "text", text: "ok", usage: { promptTokens: 10, completionTokens: 90 }, delayMs: 5 }

let gateway: TestGateway
let alt: Upstream

beforeAll(async () => {
  alt = await startUpstream({ apiKey: UPSTREAM_API_KEY })
  gateway = await startGateway({
    maxOutputTokens: CAP,
    pricing: cheap,
    providers: [{
      id: "alt",
      type: "openai-compatible",
      baseURL: alt.url,
      apiKey: Redacted.make(UPSTREAM_API_KEY),
      models: [{ id: "m1", name: "Alt One", categories: ["chat"], maxOutputTokens: CAP, pricing: dear }]
    }],
    config: {
      routes: [{
        id: "smart/balanced",
        provider: "smart",
        strategy: "loadbalance",
        targets: [{ model: "test/m1", weight: 1 }, { model: "alt/m1", weight: 1 }]
      }]
    }
  })
  gateway.upstream.respondWith(() => ANSWER)
  alt.respondWith(() => ANSWER)
})
afterAll(async () => {
  await gateway?.close()
  await alt?.close()
})

describe("a routed run's cost reservation (docs/DESIGN.md §11, §15)", () => {
  it.live("holds a costPerMonthUsd budget under 100 concurrent routed requests", () =>
    Effect.promise(async () => {
      const { id, secret } = await gateway.createKey({ limits: { costPerMonthUsd: BUDGET } })
      const answers = await Promise.all(
        Array.from({ length: REQUESTS }, async () => {
          const response = await postJson(
            `${gateway.url}/api/v1/chat`,
            chatBody({ model: "smart/balanced" }),
            bearer(secret)
          )
          const body = await response.json()
          return { status: response.status, finishReason: body.data?.finishReason, limit: body.details?.limit }
        })
      )
      for (const answer of answers) {
        if (answer.status === 429) expect(answer.limit).toBe("costPerMonthUsd")
        else expect([answer.status, answer.finishReason]).toEqual([200, "stop"])
      }
      const answered = answers.filter((answer) => answer.status === 200).length
      // At least the reservations that fit side by side at the dear price; at most what the cheap one allows.
      expect(answered).toBeGreaterThanOrEqual(Math.floor(BUDGET / 0.25))
      expect(answered).toBeLessThanOrEqual(BUDGET / 0.1)

      const rows = await gateway.ledgerRows({ keyId: id })
      expect(rows).toHaveLength(REQUESTS)
      expect(new Set(rows.flatMap((row) => row.target === null ? [] : [row.target]))).toEqual(
        new Set(["test/m1", "alt/m1"])
      )
      const spent = rows.reduce((sum, row) => sum + (row.costUsd ?? 0), 0)
      expect(spent).toBeLessThanOrEqual(BUDGET)
      expect(rows.filter((row) => row.refusedLimit === "costPerMonthUsd")).toHaveLength(REQUESTS - answered)
      // Every reservation settled: the counter holds what the ledger says was spent (in whole micro-dollars).
      const used = await gateway.run(gateway.service(Budgets).budgetUsed(`key:${id}`, "costPerMonthUsd", Date.now()))
      expect(used.used).toBeCloseTo(spent, 5)
    }), 60_000)
})
