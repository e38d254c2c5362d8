import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import {
  ADMIN_TOKEN,
  ANA,
  closeConsole,
  type ConsoleContext,
  createAccount,
  launch,
  openConsole,
  screenshot,
  signIn,
  startConsoleGateway,
  within
} from "./support.ts"

/**
 * A key's whole life through the console (docs/DESIGN.md §6), as its owner
 * lives it: sign in, create it and read its secret once, use it, narrow it,
 * rotate it with a grace, revoke it, and look at its usage and requests.
 */
let gateway: TestGateway
let browser: Browser
let console_: ConsoleContext

beforeAll(async () => {
  gateway = await startConsoleGateway()
  await createAccount(gateway, ANA)
  browser = await launch()
  console_ = await openConsole(browser, gateway)
}, 60_000)
afterAll(() => closeConsole(console_, browser, gateway))

const models = (secret: string) => fetch(`${gateway.url}/api/v1/models`, { headers: bearer(secret) })
const chat = (secret: string, model = "test/m1") =>
  postJson(`${gateway.url}/api/v1/chat`, chatBody({ model }), bearer(secret))
const status = async (answer: Promise<Response>) => {
  const response = await answer
  await response.body?.cancel()
  return response.status
}

describe("a key's life in the console", { timeout: 120_000 }, () => {
  let secret = ""
  const correlationIds: Array<string> = []

  it("signs in and shows the empty state", async () => {
    const { page } = console_
    await signIn(page, ANA.email, ANA.password)
    await page.getByRole("heading", { name: "Keys", level: 1 }).waitFor()
    await page.getByText("No keys yet — create one").waitFor()
    await screenshot(page, "console-keys-empty.png")
  })

  it("creates a key and shows its secret exactly once", async () => {
    const { page } = console_
    await page.getByRole("button", { name: "Create key" }).first().click()
    await page.getByLabel("Name").fill("ci-bot")
    await page.getByRole("checkbox", { name: /Model One/ }).check()
    await page.getByRole("checkbox", { name: /Model Two/ }).check()
    await page.getByRole("button", { name: "Create key", exact: true }).last().click()
    const shown = page.getByTestId("secret")
    secret = (await shown.innerText()).trim()
    expect(secret).toMatch(/^pk_/)
    await page.getByRole("button", { name: "Copy" }).click()
    await page.getByText("Copied to the clipboard.").waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
    await page.getByRole("row", { name: /ci-bot/ }).waitFor()
    await screenshot(page, "console-key-created.png")

    // A reload forgets it: the session's CSRF token was in memory only, so sign in again; the secret is gone.
    await page.reload()
    await signIn(page, ANA.email, ANA.password)
    await page.getByRole("row", { name: /ci-bot/ }).waitFor()
    expect(await page.getByTestId("secret").count()).toBe(0)
    expect(await page.content()).not.toContain(secret)
  })

  it("the key works against /api/v1/models and /api/v1/chat", async () => {
    const listed = await models(secret)
    expect(listed.status).toBe(200)
    expect((await listed.json()).data.models.map((model: { id: string }) => model.id)).toEqual(["test/m1", "test/m2"])
    for (const model of ["test/m1", "test/m2"]) {
      const answer = await chat(secret, model)
      expect(answer.status).toBe(200)
      correlationIds.push(answer.headers.get("x-correlation-id")!)
      await answer.body?.cancel()
    }
  })

  it("edits the allow-lists: a model taken away answers 403", async () => {
    const { page } = console_
    await page.getByRole("link", { name: "ci-bot" }).click()
    await page.getByRole("heading", { name: "Key “ci-bot”" }).waitFor()
    await page.getByRole("checkbox", { name: /Model Two/ }).uncheck()
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText(/^Saved/).waitFor()
    expect(await within(5_000, async () => (await status(chat(secret, "test/m2"))) === 403)).toBe(true)
    expect(await status(chat(secret, "test/m1"))).toBe(200)
  })

  it("rotates it: both secrets work during the grace, the old one is refused after it", async () => {
    const { page } = console_
    await page.getByRole("button", { name: "Rotate" }).click()
    const dialog = page.getByRole("dialog", { name: "Rotate this key?" })
    await dialog.getByLabel(/Grace period/).fill("3")
    await screenshot(page, "console-rotate-confirm.png")
    await dialog.getByRole("button", { name: "Rotate" }).click()
    const fresh = (await page.getByTestId("secret").innerText()).trim()
    expect(fresh).toMatch(/^pk_/)
    expect(fresh).not.toBe(secret)
    expect(await status(models(fresh))).toBe(200)
    expect(await status(models(secret))).toBe(200)
    expect(await within(8_000, async () => (await status(models(secret))) === 401)).toBe(true)
    expect(await status(models(fresh))).toBe(200)
    await page.getByRole("button", { name: "Done, I have stored it" }).click()
    expect(await page.getByTestId("secret").count()).toBe(0)
    secret = fresh
  })

  it("shows the key's usage and requests", async () => {
    const { page } = console_
    const ledger = await fetch(`${gateway.url}/admin/v1/usage?groupBy=hour`, { headers: bearer(ADMIN_TOKEN) })
    await ledger.body?.cancel()
    await page.reload()
    // Signed in again, the console is back on the page it showed.
    await signIn(page, ANA.email, ANA.password)
    await page.getByRole("heading", { name: "Key “ci-bot”" }).waitFor()
    const usage = page.getByRole("region", { name: "Usage" })
    if (ledger.status === 404) {
      // No usage ledger on this branch: the console says so plainly.
      await usage.getByText("No usage recorded yet for the last 48 hours.").waitFor()
      await page.getByText("No usage recorded yet: requests show here once a key is used.").waitFor()
    } else {
      // The three chats that passed authentication above (two, then one more with test/m1; the 403 too).
      await usage.getByText(/^\d+ requests, /).waitFor({ timeout: 10_000 })
      await expect.poll(async () => (await usage.locator("canvas").count()) > 0).toBe(true)
      for (const id of correlationIds) await page.getByText(id).first().waitFor()
    }
    await usage.getByRole("button", { name: "By day" }).click()
    expect(await usage.getByRole("button", { name: "By day" }).getAttribute("aria-pressed")).toBe("true")
    await screenshot(page, "console-key-usage.png")
    await page.getByRole("link", { name: "Requests" }).click()
    await page.getByLabel("Find a request by correlation id").fill(correlationIds[0]!)
    await page.getByRole("button", { name: "Find" }).click()
    if (ledger.status === 404) {
      await page.getByText(`No request recorded with correlation id ${correlationIds[0]}`).waitFor()
    } else {
      await page.getByRole("row", { name: new RegExp(correlationIds[0]!) }).first().waitFor()
    }
  })

  it("revokes it: refused (401) within 5 s", async () => {
    const { page } = console_
    await page.getByRole("link", { name: "Keys", exact: true }).click()
    // The Requests page's rows link to the key too, until the Keys page has replaced them.
    await page.getByRole("heading", { name: "Keys", level: 1 }).waitFor()
    await page.getByRole("link", { name: "ci-bot" }).click()
    await page.getByRole("button", { name: "Revoke" }).click()
    await page.getByRole("dialog", { name: "Revoke this key for good?" }).getByRole("button", { name: "Revoke" })
      .click()
    await page.getByText("This key is revoked").waitFor()
    const started = Date.now()
    expect(await within(5_000, async () => (await status(chat(secret))) === 401)).toBe(true)
    expect(Date.now() - started).toBeLessThan(5_000)
    await screenshot(page, "console-key-revoked.png")
  })

  it("signs out, and nothing left for another host", async () => {
    const { page } = console_
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("heading", { name: "Sign in to parley" }).waitFor()
    expect(console_.leaving).toEqual([])
    expect(console_.errors).toEqual([])
  })
})
