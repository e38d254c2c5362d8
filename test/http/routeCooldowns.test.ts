import { Redacted } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cooledUntil } from "../../src/models/ProviderCooldowns.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"
import { type FailingProvider, ROUTE, startFailingProvider } from "../support/failingProvider.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

const ADMIN_TOKEN = "operator-token-for-cooldowns"
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Three instances sharing their cooldowns (docs/DESIGN.md §15), each with its own `test` provider, and one
 * provider they all reach first, `bad` (`startFailingProvider`).
 */
const cooldownSuite = (name: string, shared: () => { databaseUrl?: string; redisUrl?: string }) =>
  describe(name, () => {
    let bad: FailingProvider
    let gateways: Array<TestGateway>
    // A key on each: over Redis each instance has a database of its own.
    let secrets: Map<TestGateway, string>

    beforeAll(async () => {
      bad = await startFailingProvider()
      const { databaseUrl, redisUrl: redis } = shared()
      const start = () =>
        startGateway({
          ...(databaseUrl === undefined ? {} : { databaseUrl }),
          observability: { metricsPublic: true },
          providers: bad.providers,
          config: {
            routes: bad.routes,
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
      await bad.upstream.close()
    })

    const providersOf = async (gateway: TestGateway) => {
      const response = await fetch(`${gateway.url}/admin/v1/providers`, { headers: bearer(ADMIN_TOKEN) })
      expect(response.status).toBe(200)
      return (await response.json()).data
    }

    const ask = async (gateway: TestGateway) => {
      const response = await postJson(
        `${gateway.url}/api/v1/chat`,
        chatBody({ model: ROUTE }),
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
        expect(bad.upstream.requests.length).toBe(3)
        // The others, at once: straight to their own provider.
        const seenAt = performance.now()
        await ask(two)
        await ask(three)
        expect(performance.now() - seenAt).toBeLessThan(1_000)
        expect(bad.upstream.requests.length).toBe(3)

        // After its first cooldown (1 s) it is asked again; still failing, it cools for 2 s.
        await sleep(1_100)
        await ask(two)
        expect(bad.upstream.requests.length).toBe(6)
        const shownAt = Date.now()
        // Every instance shows it so: the operator's view, and /metrics (with its attempts by target).
        const { providers, routes } = await providersOf(three)
        const failing = providers.find((provider: { id: string }) => provider.id === bad.id)
        expect(failing).toMatchObject({ models: [`${bad.id}/m1`], failures: 2 })
        expect(Date.parse(failing.cooledUntil) - shownAt).toBeGreaterThan(1_000)
        expect(Date.parse(failing.cooledUntil) - shownAt).toBeLessThanOrEqual(2_000)
        expect(providers.find((provider: { id: string }) => provider.id === "test")).toMatchObject({
          failures: 0,
          cooledUntil: null
        })
        expect(routes).toEqual([{
          id: ROUTE,
          strategy: "fallback",
          targets: [
            { model: `${bad.id}/m1`, weight: 1, provider: bad.id, failures: 2, cooledUntil: failing.cooledUntil },
            { model: "test/m1", weight: 1, provider: "test", failures: 0, cooledUntil: null }
          ],
          firstChunkTimeoutMs: null
        }])
        const metrics = await (await fetch(`${one.url}/metrics`)).text()
        const seconds = Number(
          new RegExp(`^parley_provider_cooldown\\{provider="${bad.id}"\\} (\\S+)$`, "m").exec(metrics)?.[1]
        )
        expect(seconds).toBeGreaterThan(0.5)
        expect(seconds).toBeLessThanOrEqual(2)
        expect(metrics).toMatch(/^parley_provider_cooldown\{provider="test"\} 0$/m)
        expect(metrics).toContain(
          `parley_model_calls_total{provider="${bad.id}",model="m1",outcome="ProviderUnavailable"} 3`
        )
        await sleep(1_100 - (Date.now() - shownAt))
        await ask(three)
        expect(bad.upstream.requests.length).toBe(6)

        // Once those pass it is asked again, and an answer ends its cooldown for all.
        await sleep(1_000)
        bad.upstream.respondWith(() => ({ type: "text", text: "bad is back" }))
        expect(await ask(one)).toContain("back")
        expect(await ask(two)).toContain("back")
        expect(bad.upstream.requests.length).toBe(8)
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
