import { it } from "@effect/vitest"
import { Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { expect } from "vitest"
import { describePostgres } from "../store/postgres.ts"
import type { TestGateway } from "../support/gateway.ts"
import { startEverythingHttp } from "../support/mcp/everything.ts"
import { startFakeMcpServer } from "../support/mcp/fakeServer.ts"
import { admin, closeAll, inFreshSchema, KEPT_MS, startInstances, timeUntil } from "./instances.ts"

/**
 * MCP servers registered through one instance reach the others within 1 s
 * (docs/DESIGN.md §8, §9): each hears the change on LISTEN and reads the
 * server from the store, its header values opened with the shared
 * PARLEY_SECRET_KEY.
 */
const CREDENTIAL = "Bearer shared-mcp-credential-3e81"

const toolNames = async (gateway: TestGateway, secret: string) => {
  const response = await fetch(`${gateway.url}/api/v1/tools`, { headers: { authorization: `Bearer ${secret}` } })
  expect(response.status).toBe(200)
  return ((await response.json()).data.tools as Array<{ name: string }>).map((tool) => tool.name)
}

/** Milliseconds until every instance's /tools for the key passes `check`. */
const everywhere = (gateways: ReadonlyArray<TestGateway>, secret: string, check: (names: Array<string>) => boolean) =>
  timeUntil(
    KEPT_MS,
    async () => (await Promise.all(gateways.map((gateway) => toolNames(gateway, secret)))).every(check)
  )

describePostgres("MCP servers on many instances", () => {
  it.live("a server added, refreshed or removed through one instance is so at the others within 1 s", () =>
    inFreshSchema(async (url) => {
      const everything = await startEverythingHttp()
      const fake = await startFakeMcpServer({ type: "object", properties: { word: { type: "string" } } })
      const secretKey = Redacted.make(randomBytes(32).toString("base64"))
      const gateways = await startInstances([url, url, url], KEPT_MS, { secretKey })
      try {
        const [first, ...others] = gateways as [TestGateway, TestGateway, TestGateway]
        const { secret } = await first.createKey({ tools: ["shared__*", "fake__*"] })
        for (const gateway of gateways) expect(await toolNames(gateway, secret)).toEqual([])

        await admin(first, "POST", "/mcp-servers", {
          id: "shared",
          url: everything.url,
          headers: { Authorization: CREDENTIAL }
        })
        expect(await toolNames(first, secret)).toContain("shared__echo")
        expect(await everywhere(others, secret, (names) => names.includes("shared__echo"))).toBeLessThan(1_000)

        // A refresh through one instance releases a held-back tool at every instance.
        await admin(first, "POST", "/mcp-servers", { id: "fake", url: fake.url, headers: { "X-Key": "k-1" } })
        expect(await everywhere(gateways, secret, (names) => names.includes("fake__lookup"))).toBeLessThan(1_000)
        expect(fake.headers.length).toBeGreaterThan(0)
        expect(fake.headers.every((headers) => headers["x-key"] === "k-1")).toBe(true)
        fake.schema = { type: "object", properties: { word: { type: "string" }, language: { type: "string" } } }
        expect(await everywhere(gateways, secret, (names) => !names.includes("fake__lookup"))).toBeDefined()
        await admin(first, "POST", "/mcp-servers/fake/refresh")
        expect(await everywhere(others, secret, (names) => names.includes("fake__lookup"))).toBeLessThan(1_000)

        await admin(first, "DELETE", "/mcp-servers/shared")
        expect(await toolNames(first, secret)).toEqual(["fake__lookup"])
        expect(await everywhere(others, secret, (names) => names.join() === "fake__lookup")).toBeLessThan(1_000)
      } finally {
        await closeAll(gateways)
        await everything.close()
        await fake.close()
      }
    }))
})
