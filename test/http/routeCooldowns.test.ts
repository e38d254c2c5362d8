import { Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Reply, Upstream } from "../../src/demo/upstream/types.ts"
import { cooledUntil } from "../../src/models/ProviderCooldowns.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

const ADMIN_TOKEN = "operator-token-for-cooldowns"
const refusing: Reply = { type: "error", status: 503, retryAfter: 0 }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Three instances sharing their cooldowns (docs/DESIGN.md §15), each with its own `test` provider, and one
 * provider they all reach first, `bad` (named afresh, so a shared Redis holds no earlier run's count).
 */
const cooldownSuite = (name: string, shared: () => { databaseUrl?: string; redisUrl?: string }) =>
  describe(name, () => {
    let bad: Upstream
    let badId: string
    let gateways: Array<TestGateway>
    // A key on each: over Redis each instance has a database of its own.
    let secrets: Map<TestGateway, string>

    beforeAll(async () => {
      bad = await startUpstream({ apiKey: UPSTREAM_API_KEY })
      bad.respondWith(() => refusing)
      badId = `bad${randomBytes(4).toString("hex")}`
      const { databaseUrl, redisUrl: redis } = shared()
      const start = () =>
        startGateway({
          ...(databaseUrl === undefined ? {} : { databaseUrl }),
          observability: { metricsPublic: true },
          providers: [{
            id: badId,
            type: "openai-compatible",
            baseURL: bad.url,
            apiKey: Redacted.make(UPSTREAM_API_KEY),
            models: [{ id: "m1", name: "Bad", categories: ["chat"] }]
          }],
          config: {
            routes: [{
              id: "smart/r",
              provider: "smart",
              strategy: "fallback",
              targets: [{ model: `${badId}/m1`, weight: 1 }, { model: "test/m1", weight: 1 }]
            }],
            adminToken: Redacted.make(ADMIN_TOKEN),
            ...(redis === undefined ? {} : { redisUrl: Redacted.make(redis) })
          }
        })
      gateways = [await start(), await start(), await start()]
      secrets = new Map(
        await Promise.all(gateways.map(async (gateway) => [gateway, (await gateway.createKey()).secret] as const))
      )
    })
    afterAll(async () => {
      await Promise.all(gateways.map((gateway) => gateway.close()))
      await bad.close()
    })

    const ask = async (gateway: TestGateway) => {
      const response = await postJson(
        `${gateway.url}/api/v1/chat`,
        chatBody({ model: "smart/r" }),
        bearer(secrets.get(gateway)!)
      )
      expect(response.status).toBe(200)
      return JSON.stringify((await response.json()).data.messages.at(-1))
    }

    it(
      "a provider one instance saw fail is skipped by every instance, comes back alone, and cools longer each time it fails",
      async () => {
        const [one, two, three] = gateways as [TestGateway, TestGateway, TestGateway]
        await ask(one)
        expect(bad.requests.length).toBe(3)
        // The others, at once: straight to their own provider.
        const seenAt = performance.now()
        await ask(two)
        await ask(three)
        expect(performance.now() - seenAt).toBeLessThan(1_000)
        expect(bad.requests.length).toBe(3)

        // After its first cooldown (1 s) it is asked again; still failing, it cools for 2 s.
        await sleep(1_100)
        await ask(two)
        expect(bad.requests.length).toBe(6)
        await sleep(1_100)
        await ask(three)
        expect(bad.requests.length).toBe(6)

        // Once those pass it is asked again, and an answer ends its cooldown for all.
        await sleep(1_000)
        bad.respondWith(() => ({ type: "text", text: "bad is back" }))
        expect(await ask(one)).toContain("back")
        expect(await ask(two)).toContain("back")
        expect(bad.requests.length).toBe(8)
      },
      20_000
    )
  })

describe("cooldowns", () => {
  it("double from 1 s with each failure, up to 5 minutes", () => {
    expect([1, 2, 3, 4].map((failures) => cooledUntil(failures, 1_000))).toEqual([2_000, 3_000, 5_000, 9_000])
    expect(cooledUntil(30, 0)).toBe(300_000)
  })
})

cooldownSuite("cooldowns shared over one SQLite database", () => ({
  databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), "parley-cooldowns-")), "parley.db")}`
}))

describeRedis("cooldowns shared over Redis", () => {
  cooldownSuite("three instances, each its own database", () => ({ redisUrl }))
})
