import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RouteView } from "../../src/domain/views.ts"
import { type FailingProvider, refusing, ROUTE, startFailingProvider } from "../support/failingProvider.ts"
import type { TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import {
  ADMIN_TOKEN,
  createAccount,
  launch,
  noSidewaysScroll,
  openConsole,
  refusedToAccountHolder,
  screenshot,
  signInAsOperator,
  startConsoleGateway
} from "./support.ts"

/**
 * The operator's Providers page (docs/DESIGN.md §15) against the gateway's
 * own /admin/v1/providers: two providers (the harness's `test` and one that
 * refuses every request) and two routes over them; the refusing one, made to
 * fail by chats through the fallback route, shows as cooling down.
 */
let bad: FailingProvider
let gateway: TestGateway
let browser: Browser

const dee = { name: "Dee", email: "dee@example.com", password: "a sixth long password" }
// Chats at once: each tries `bad` before any has failed, so each failure counts (and doubles the cooldown).
const AT_ONCE = 5

beforeAll(async () => {
  // Slow to refuse, so the chats all start before the first failure.
  bad = await startFailingProvider(refusing(300))
  gateway = await startConsoleGateway({
    providers: bad.providers,
    config: {
      routes: [
        { ...bad.routes[0]!, firstChunkTimeoutMs: 5_000 },
        {
          id: "smart/spread",
          provider: "smart",
          strategy: "loadbalance",
          targets: [{ model: "test/m1", weight: 3 }, { model: `${bad.id}/m1`, weight: 1 }]
        }
      ]
    }
  })
  await createAccount(gateway, dee)
  const { secret } = await gateway.createKey()
  const answers = await Promise.all(
    Array.from(
      { length: AT_ONCE },
      () => postJson(`${gateway.url}/api/v1/chat`, chatBody({ model: ROUTE }), bearer(secret))
    )
  )
  expect(answers.map((answer) => answer.status)).toEqual(Array(AT_ONCE).fill(200))
  browser = await launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
  await bad?.upstream.close()
})

const providersView = async (): Promise<{ providers: Array<any>; routes: Array<RouteView> }> => {
  const response = await fetch(`${gateway.url}/admin/v1/providers`, { headers: bearer(ADMIN_TOKEN) })
  expect(response.status).toBe(200)
  return (await response.json()).data
}

/** A row of a table, found by its first cell (on a narrow screen too, where cells carry their column's name). */
const rowOf = (page: Page, table: string, column: string, id: string) =>
  page.getByRole("table", { name: table }).locator("tbody tr").filter({
    has: page.locator(`td[data-label='${column}']`).getByText(id, { exact: true })
  })

describe("the Providers page", { timeout: 120_000 }, () => {
  it("shows each provider's models and cooldown, and each route's strategy, targets and their state", async () => {
    const view = await providersView()
    const failing = view.providers.find((provider) => provider.id === bad.id)
    // Each chat counted one failure: `bad` cools down for 2^(n-1) s, longer than this test takes.
    expect(failing.failures).toBeGreaterThanOrEqual(3)
    expect(Date.parse(failing.cooledUntil)).toBeGreaterThan(Date.now() + 2_000)
    expect(view.routes.find((route) => route.id === ROUTE)?.targets).toEqual([
      {
        model: `${bad.id}/m1`,
        weight: 1,
        provider: bad.id,
        failures: failing.failures,
        cooledUntil: failing.cooledUntil
      },
      { model: "test/m1", weight: 1, provider: "test", failures: 0, cooledUntil: null }
    ])

    const { context, page, leaving, errors } = await openConsole(browser, gateway)
    await signInAsOperator(page)
    await page.getByRole("link", { name: "Providers" }).click()
    await page.getByRole("heading", { name: "Providers", level: 1 }).waitFor()

    const cooling = rowOf(page, "Providers", "Provider", bad.id)
    await cooling.getByText("cooling down", { exact: true }).waitFor()
    await cooling.getByText(`${failing.failures} failures in a row`, { exact: false }).waitFor()
    expect(await cooling.locator("time").getAttribute("datetime")).toBe(failing.cooledUntil)
    await cooling.getByText(`${bad.id}/m1`, { exact: true }).waitFor()
    const healthy = rowOf(page, "Providers", "Provider", "test")
    await healthy.getByText("ready", { exact: true }).waitFor()
    expect(await healthy.locator("td[data-label='Models'] li").allInnerTexts()).toEqual(["test/m1", "test/m2"])

    const fallback = rowOf(page, "Routes", "Route", ROUTE)
    await fallback.getByText("fallback: in this order").waitFor()
    await fallback.getByText("5 s (every target but the last)").waitFor()
    const targets = fallback.locator(".targets li")
    expect(await targets.count()).toBe(2)
    await targets.nth(0).getByText(`${bad.id}/m1`, { exact: true }).waitFor()
    await targets.nth(0).getByText("cooling down", { exact: true }).waitFor()
    await targets.nth(1).getByText("test/m1", { exact: true }).waitFor()
    await targets.nth(1).getByText("ready", { exact: true }).waitFor()
    const spread = rowOf(page, "Routes", "Route", "smart/spread")
    await spread.getByText("load balance: one by weight, then the others").waitFor()
    expect(await spread.locator(".targets li").allInnerTexts()).toEqual([
      expect.stringMatching(/^test\/m1 weight 3\s+ready$/),
      expect.stringMatching(new RegExp(`^${bad.id}/m1 weight 1\\s+cooling down`))
    ])
    await spread.getByText("none: each provider's own timeouts").waitFor()
    // Read-only: nothing on the page changes a provider or a route.
    expect(await page.locator("main").getByRole("button").allInnerTexts()).toEqual(["Refresh"])
    await screenshot(page, "console-providers.png")

    await page.setViewportSize({ width: 390, height: 844 })
    await noSidewaysScroll(page)
    await screenshot(page, "console-providers-390.png")
    expect(leaving).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it("is not offered to an account holder, who is told so at its address", () =>
    refusedToAccountHolder(browser, gateway, dee, { name: "providers", title: "Providers", api: "/providers" }))
})
