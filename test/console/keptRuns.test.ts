import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { drain, finishOf, readUntil, startChat, story } from "../support/keptRuns.ts"
import {
  asOperator,
  type ConsoleContext,
  createAccount,
  launch,
  noSidewaysScroll,
  openConsole,
  screenshot,
  signIn,
  startConsoleGateway
} from "./support.ts"

/**
 * A key's resumable runs on its console page (docs/DESIGN.md §6, §16): a
 * running one with its Stop button, which ends its stream wherever it runs
 * and leaves it listed as stopped; another account does not see it.
 */
let gateway: TestGateway
let browser: Browser
const consoles: Array<ConsoleContext> = []

const ana = { name: "Ana", email: "ana@example.com", password: "correct horse battery" }
const bo = { name: "Bo", email: "bo@example.com", password: "another long password" }
let key: { readonly id: string; readonly secret: string }

beforeAll(async () => {
  gateway = await startConsoleGateway()
  const anaId = await createAccount(gateway, ana)
  await createAccount(gateway, bo)
  const created = await asOperator(gateway, "POST", "/keys", {
    name: "ana-bot",
    allowedModels: ["*"],
    allowedTools: [],
    accountId: anaId
  })
  key = { id: created.key.id, secret: created.secret }
  browser = await launch()
}, 60_000)
afterAll(async () => {
  for (const opened of consoles) await opened.context.close()
  await browser?.close()
  await gateway?.close()
})

const keyPage = async (who: typeof ana) => {
  const opened = await openConsole(browser, gateway)
  consoles.push(opened)
  await signIn(opened.page, who.email, who.password)
  await opened.page.goto(`${gateway.url}/console#/keys/${key.id}`)
  return opened
}

describe("a key's resumable runs in the console", { timeout: 60_000 }, () => {
  it("shows a running run; Stop ends its stream and the list shows it stopped", async () => {
    gateway.upstream.enqueue(story(400, 50))
    const { reader } = await readUntil(await startChat(gateway.url, key.secret, "chat-console"), "word1")
    const { errors, leaving, page } = await keyPage(ana)
    const runs = page.getByRole("region", { name: "Resumable runs" })
    const row = runs.getByRole("row").filter({ hasText: "chat-console" })
    await row.getByText("running", { exact: true }).waitFor()
    await runs.scrollIntoViewIfNeeded()
    await screenshot(page, "console-key-runs-running.png")

    await row.getByRole("button", { name: "Stop run chat-console" }).click()
    const dialog = page.getByRole("dialog", { name: "Stop this run?" })
    await dialog.getByRole("button", { name: "Stop" }).click()
    const readRest = async () => {
      let text = ""
      const decoder = new TextDecoder()
      for (let read = await reader.read(); !read.done; read = await reader.read()) text += decoder.decode(read.value)
      return text
    }
    const rest = await readRest()
    expect(finishOf(rest).messageMetadata).toMatchObject({ finished: false, finishReason: "stopped" })
    await row.getByText("stopped", { exact: true }).waitFor({ timeout: 5_000 })
    expect(await row.getByRole("button", { name: /Stop/ }).count()).toBe(0)
    await screenshot(page, "console-key-runs-stopped.png")

    await page.setViewportSize({ width: 390, height: 844 })
    await runs.scrollIntoViewIfNeeded()
    await noSidewaysScroll(page)
    await screenshot(page, "console-key-runs-390.png")
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(errors).toEqual([])
    expect(leaving).toEqual([])
  })

  it("another account's holder does not see the key or its runs", async () => {
    gateway.upstream.enqueue(story(400, 50))
    const { reader } = await readUntil(await startChat(gateway.url, key.secret, "chat-hidden"), "word1")
    const { leaving, page } = await keyPage(bo)
    await page.getByRole("alert").waitFor()
    expect(await page.getByText("chat-hidden").count()).toBe(0)
    expect(await page.getByRole("region", { name: "Resumable runs" }).count()).toBe(0)
    await screenshot(page, "console-key-runs-other-account.png")
    expect(leaving).toEqual([])
    const stopped = await fetch(`${gateway.url}/api/v1/chat/chat-hidden/stop`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}` }
    })
    expect(stopped.status).toBe(202)
    await drain(reader)
  })
})
