import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import {
  asOperator,
  createAccount,
  launch,
  openConsole,
  screenshot,
  signIn,
  signInAsOperator,
  startConsoleGateway
} from "./support.ts"

/**
 * Where the console lands after a sign-in (docs/DESIGN.md §6): on the page it
 * was on, unless the new session may not see it; then on Keys, never on a
 * refusal or someone else's key.
 */
let gateway: TestGateway
let browser: Browser
let othersKey: string

const dee = { name: "Dee", email: "dee@example.com", password: "a sixth long password" }

beforeAll(async () => {
  gateway = await startConsoleGateway()
  await createAccount(gateway, dee)
  othersKey = (await asOperator(gateway, "POST", "/keys", { name: "ops", allowedModels: [], allowedTools: [] })).key.id
  browser = await launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
})

describe("landing after a sign-in", { timeout: 120_000 }, () => {
  it("an account signing in after the operator signed out on an operator's page lands on Keys", async () => {
    const { context, page, leaving, errors } = await openConsole(browser, gateway)
    await signInAsOperator(page)
    for (const [link, heading] of [["Accounts", "Accounts"], ["MCP servers", "MCP servers"]] as const) {
      await page.getByRole("link", { name: link }).click()
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor()
      await page.getByRole("button", { name: "Sign out" }).click()
      await signIn(page, dee.email, dee.password)
      await page.getByRole("heading", { name: "Keys", level: 1 }).waitFor()
      expect(await page.getByText("the operator's to manage").count()).toBe(0)
      expect(new URL(page.url()).hash).not.toContain(link === "Accounts" ? "accounts" : "mcp-servers")
      await page.getByRole("button", { name: "Sign out" }).click()
      await signInAsOperator(page)
    }
    // Nor on a key of another account, left open by the operator.
    await page.goto(`${gateway.url}/console#/keys/${othersKey}`)
    await page.getByRole("heading", { name: "Key “ops”" }).waitFor()
    await page.getByRole("button", { name: "Sign out" }).click()
    await signIn(page, dee.email, dee.password)
    await page.getByRole("heading", { name: "Keys", level: 1 }).waitFor()
    await screenshot(page, "console-landing-after-operator.png")
    expect(leaving).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it("shows the page whose address changed while it drew the pages after the sign-in", async () => {
    const { context, page } = await openConsole(browser, gateway)
    // The moment the pages are in the document, before the console's effects have run: no later.
    await page.evaluate((key) => {
      new MutationObserver((_, observer) => {
        if (document.querySelector("header.bar") === null) return
        observer.disconnect()
        location.hash = `#/keys/${key}`
      }).observe(document.body, { childList: true, subtree: true })
    }, othersKey)
    await signInAsOperator(page)
    await page.getByRole("heading", { name: "Key “ops”" }).waitFor({ timeout: 10_000 })
    await context.close()
  })

  it("an operator's page opened by its address lands an account on Keys; its own pages are kept", async () => {
    const { context, page } = await openConsole(browser, gateway)
    await page.goto(`${gateway.url}/console#/accounts`)
    await signIn(page, dee.email, dee.password)
    await page.getByRole("heading", { name: "Keys", level: 1 }).waitFor()
    expect(await page.getByText("the operator's to manage").count()).toBe(0)
    // A page the account may see is where it lands (a reload forgets the session: sign in again).
    await page.getByRole("link", { name: "Requests", exact: true }).click()
    await page.reload()
    await signIn(page, dee.email, dee.password)
    await page.getByRole("heading", { name: "Requests", level: 1 }).waitFor()
    await context.close()
  })
})
