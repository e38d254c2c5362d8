import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import {
  ANA,
  asOperator,
  closeConsole,
  type ConsoleContext,
  createAccountKey,
  launch,
  openConsole,
  screenshot,
  signIn,
  startConsoleGateway,
  within
} from "./support.ts"

/**
 * What the console shows of a key in use (docs/DESIGN.md §6): its last use
 * as soon as the page is looked at again, counts in words that agree with
 * them, and the requests table naming the key as a person named it.
 */
let gateway: TestGateway
let browser: Browser
let ana: ConsoleContext
let key: { readonly id: string; readonly secret: string }

beforeAll(async () => {
  gateway = await startConsoleGateway()
  key = await createAccountKey(gateway, ANA, { name: "ci-bot", allowedModels: ["test/m1"] })
  browser = await launch()
  ana = await openConsole(browser, gateway)
}, 60_000)
afterAll(() => closeConsole(ana, browser, gateway))

const adminGet = (path: string) => asOperator(gateway, "GET", path, undefined)

/** The user comes back to the tab (headless Chromium never hides it, so its events are sent as a browser would). */
const lookAgain = (page: ConsoleContext["page"]) =>
  page.evaluate(() => {
    document.dispatchEvent(new Event("visibilitychange"))
    window.dispatchEvent(new Event("focus"))
  })

describe("a key in use, in the console", { timeout: 120_000 }, () => {
  it("the keys list shows the key's last use once the page is looked at again, without leaving it", async () => {
    const { page } = ana
    await signIn(page, ANA.email, ANA.password)
    const row = page.getByRole("row", { name: /ci-bot/ })
    await expect.poll(() => row.locator("td[data-label='Last used']").innerText()).toBe("never")
    // One request the key may not make (another model): authenticated, so used, and an error in the ledger.
    const refused = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ model: "test/m2" }), bearer(key.secret))
    expect(refused.status).toBe(403)
    await refused.body?.cancel()
    expect(await within(5_000, async () => (await adminGet(`/keys/${key.id}`)).key.lastUsedAt !== null)).toBe(true)
    await lookAgain(page)
    await expect.poll(() => row.locator("td[data-label='Last used']").innerText(), { timeout: 5_000 }).not.toBe(
      "never"
    )
    await screenshot(page, "console-keys-last-used.png")
  })

  it("counts in the singular when there is one", async () => {
    const { page } = ana
    expect(
      await within(10_000, async () => (await adminGet(`/usage?keyId=${key.id}&groupBy=hour`)).rows.length > 0)
    ).toBe(true)
    await page.getByRole("link", { name: "ci-bot" }).click()
    const usage = page.getByRole("region", { name: "Usage" })
    await usage.getByText("1 request, 1 error, 0 tokens in the last 48 hours.").waitFor({ timeout: 10_000 })
    await screenshot(page, "console-key-one-request.png")
  })

  it("a key's page loaded again when looked at again keeps what is being typed in its rules", async () => {
    const { page } = ana
    const two = page.getByRole("checkbox", { name: /Model Two/ })
    await two.check()
    const reloaded = page.waitForResponse((response) => response.url().endsWith(`/admin/v1/keys/${key.id}`))
    await lookAgain(page)
    await reloaded
    await page.waitForTimeout(200)
    expect(await two.isChecked()).toBe(true)
    await two.uncheck()
  })

  it("the requests table names the key, its id beside the name", async () => {
    const { page } = ana
    await page.getByRole("link", { name: "Requests", exact: true }).click()
    const cell = page.locator("td[data-label='Key']").first()
    await cell.waitFor({ timeout: 10_000 })
    const link = cell.getByRole("link")
    expect(await link.innerText()).toBe("ci-bot")
    expect(await link.getAttribute("href")).toBe(`#/keys/${key.id}`)
    expect(await cell.innerText()).toContain(key.id)
    await screenshot(page, "console-requests-key-names.png")
    // The key's own page lists its requests the same way.
    await link.click()
    const own = page.getByRole("region", { name: "Recent requests" }).locator("td[data-label='Key']").first()
    await own.waitFor()
    expect(await own.getByRole("link").innerText()).toBe("ci-bot")
    expect(ana.leaving).toEqual([])
    expect(ana.errors).toEqual([])
  })
})
