import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import {
  asOperator,
  createAccount,
  focused,
  launch,
  openConsole,
  screenshot,
  signIn,
  signInAsOperator,
  startConsoleGateway,
  tabTo
} from "./support.ts"

/** The console with the keyboard alone, as the operator, on a 390 px wide screen, and its chart. */
let gateway: TestGateway
let browser: Browser
let boId: string

const bo = { name: "Bo", email: "bo@example.com", password: "another long password" }

beforeAll(async () => {
  gateway = await startConsoleGateway()
  boId = await createAccount(gateway, bo)
  browser = await launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
})

/** The focus ring a keyboard user sees on what has the focus. */
const outline = (page: Page) => page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)

// Rows as DESIGN §6 fixes them, for a ledger that has seen the key: two hours of use.
const usageRows = (now: number) => {
  const hour = Math.floor(now / 3_600_000) * 3_600_000
  const row = (start: number, requests: number, errors: number, totalTokens: number) => ({
    bucket: new Date(start).toISOString(),
    requests,
    errors,
    inputTokens: totalTokens / 2,
    outputTokens: totalTokens / 2,
    totalTokens,
    reasoningTokens: 0,
    cachedInputTokens: 0,
    toolCalls: 0,
    costUsd: null
  })
  return [row(hour - 5 * 3_600_000, 12, 1, 5400), row(hour - 3_600_000, 30, 0, 12000), row(hour, 7, 2, 2100)]
}

describe("the console for every kind of user", { timeout: 120_000 }, () => {
  it("the main flow with the keyboard alone, with a visible focus", async () => {
    const { context, page, leaving, errors } = await openConsole(browser, gateway)
    await tabTo(page, "input Email")
    await page.keyboard.type(bo.email)
    await tabTo(page, "input Password")
    await page.keyboard.type(bo.password)
    await page.keyboard.press("Enter")
    await page.getByText("No keys yet — create one").waitFor()
    await tabTo(page, "button Create key")
    expect(await outline(page)).not.toBe("none")
    await page.keyboard.press("Enter")
    await tabTo(page, "input Name")
    await page.keyboard.type("keyboard-key")
    await tabTo(page, "input All models")
    await page.keyboard.press("Space")
    await tabTo(page, "button Create key")
    await page.keyboard.press("Enter")
    await page.getByTestId("secret").waitFor()
    // The reveal takes the focus, so the next Tab reaches its Copy button.
    await tabTo(page, "button Copy")
    await page.keyboard.press("Enter")
    await page.getByText("Copied to the clipboard.").waitFor()
    await tabTo(page, "button Done")
    await page.keyboard.press("Enter")
    await tabTo(page, "a keyboard-key")
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Key “keyboard-key”" }).waitFor()
    await tabTo(page, "button Deactivate")
    await page.keyboard.press("Enter")
    const dialog = page.getByRole("dialog", { name: "Deactivate this key?" })
    await dialog.waitFor()
    // Escape cancels; nothing changed.
    await page.keyboard.press("Escape")
    await dialog.waitFor({ state: "hidden" })
    await tabTo(page, "button Deactivate")
    await page.keyboard.press("Enter")
    await dialog.waitFor()
    expect(await focused(page)).toBe("button Deactivate")
    await page.keyboard.press("Enter")
    await page.getByText("inactive").first().waitFor()
    await tabTo(page, "a Requests")
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Requests", level: 1 }).waitFor()
    // The heading takes the focus in an effect, after the page has painted.
    await expect.poll(() => focused(page)).toBe("h1 Requests")
    expect(leaving).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it("the operator creates and disables an account", async () => {
    const { context, page, leaving, errors } = await openConsole(browser, gateway)
    await signInAsOperator(page)
    await page.getByRole("link", { name: "Accounts" }).click()
    await page.getByRole("button", { name: "Create account" }).first().click()
    await page.getByLabel("Name").fill("Cy")
    await page.getByLabel("Email (its sign-in)").fill("cy@example.com")
    await page.getByLabel(/Password/).fill("a third long password")
    await page.getByRole("button", { name: "Create account" }).last().click()
    const row = page.getByRole("row", { name: /cy@example\.com/ })
    await row.getByText("active").waitFor()
    await row.getByRole("button", { name: /Disable/ }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Disable" }).click()
    await row.getByText("disabled").waitFor()
    await screenshot(page, "console-accounts.png")
    const refused = await fetch(`${gateway.url}/admin/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "cy@example.com", password: "a third long password" })
    })
    expect(refused.status).toBe(401)
    // The operator's token stays for the tab: a reload keeps the operator signed in.
    await page.reload()
    await page.getByRole("heading", { name: "Accounts", level: 1 }).waitFor()
    expect(leaving).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it("390 px wide: the tables reflow, nothing scrolls sideways; the chart draws the ledger's rows", async () => {
    const { context, page, leaving, errors } = await openConsole(browser, gateway, { width: 390, height: 844 })
    // The usage ledger as DESIGN §6 shapes its answer (served here by the test, whatever this branch holds).
    await context.route(
      "**/admin/v1/usage?*",
      (route) => route.fulfill({ json: { success: true, data: { rows: usageRows(Date.now()) } } })
    )
    await asOperator(gateway, "POST", "/keys", {
      name: "narrow-key",
      accountId: boId,
      allowedModels: ["test/m1"],
      allowedTools: []
    })
    await signIn(page, bo.email, bo.password)
    await page.getByRole("heading", { name: "Keys", level: 1 }).waitFor()
    await page.getByRole("row", { name: /narrow-key/ }).waitFor()
    expect(await page.locator("thead").first().isVisible()).toBe(false)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(page, "console-keys-390.png")
    await page.getByRole("link", { name: "narrow-key" }).click()
    const usage = page.getByRole("region", { name: "Usage" })
    await usage.getByText("49 requests, 3 errors, 19,500 tokens in the last 48 hours.").waitFor()
    await usage.locator("canvas").first().waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(page, "console-key-390.png")
    await page.setViewportSize({ width: 1280, height: 900 })
    await usage.locator("canvas").first().scrollIntoViewIfNeeded()
    await usage.screenshot({ path: "test-results/console-usage-chart.png" })
    expect(leaving).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
