import type { Browser, Locator } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { httpServerEntry, type RunningServer, startEverythingHttp } from "../support/mcp/everything.ts"
import { makeTestTool } from "../support/tools.ts"
import {
  ADMIN_TOKEN,
  artifacts,
  asOperator,
  type ConsoleContext,
  createAccount,
  launch,
  noSidewaysScroll,
  openConsole,
  screenshot,
  signIn,
  signInAsOperator,
  startConsoleGateway,
  tabTo
} from "./support.ts"

/**
 * A key's and an account's rules in the console (docs/DESIGN.md §6, §9–§11):
 * allow-lists offering the MCP reference server's tools grouped by server,
 * the tools that wait for approval, limits, and the limits' current use.
 */
let everything: RunningServer
let gateway: TestGateway
let browser: Browser
let console_: ConsoleContext

const dee = { name: "Dee", email: "dee@example.com", password: "a fourth long password" }
let deeId = ""

beforeAll(async () => {
  everything = await startEverythingHttp()
  gateway = await startConsoleGateway({
    tools: [makeTestTool({ name: "lookup", category: "business" })],
    config: {
      mcpServers: [httpServerEntry("everything", everything.url)]
    }
  })
  deeId = await createAccount(gateway, dee)
  browser = await launch()
  console_ = await openConsole(browser, gateway)
}, 60_000)
afterAll(async () => {
  await console_?.context.close()
  await browser?.close()
  await gateway?.close()
  await everything?.close()
})

const chat = async (secret: string) => {
  const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(secret))
  await response.body?.cancel()
  return response.status
}

const keyNamed = async (name: string) => {
  const { keys } = await (await fetch(`${gateway.url}/admin/v1/keys`, { headers: bearer(ADMIN_TOKEN) })).json()
    .then((body) => body.data)
  return keys.find((key: { name: string }) => key.name === name)
}

/** The meter line of one limit in a limits panel. */
const limitLine = (panel: Locator, label: string) => panel.getByRole("listitem").filter({ hasText: label })

describe("rules and limits in the console", { timeout: 120_000 }, () => {
  let secret = ""

  it("creates a key allowed an MCP server's tools, one of them waiting for approval, with limits", async () => {
    const { page } = console_
    await signIn(page, dee.email, dee.password)
    await page.getByRole("button", { name: "Create key" }).first().click()
    await page.getByLabel("Name").fill("mcp-bot")
    await page.getByRole("checkbox", { name: /Model One/ }).check()
    const tools = page.getByRole("group", { name: "Tools it may use" })
    // The built-in tool, then the reference server's tools under its name, with its pattern first.
    await tools.getByRole("checkbox", { name: "lookup" }).waitFor()
    const server = tools.getByRole("group", { name: "MCP server everything" })
    const offered = await server.getByRole("checkbox").evaluateAll((boxes) =>
      boxes.map((box) => document.querySelector(`label[for="${CSS.escape(box.id)}"]`)!.textContent)
    )
    expect(offered[0]).toBe("All tools of everything everything__*")
    expect(offered).toContain("echo")
    expect(offered).toContain("get-tiny-image")
    await server.getByRole("checkbox", { name: /All tools of everything/ }).check()
    const approvals = page.getByRole("group", { name: "Tools that wait for a person's approval" })
    await approvals.getByRole("group", { name: "MCP server everything" }).getByRole("checkbox", {
      name: "echo",
      exact: true
    })
      .check()
    await page.getByLabel("Requests per minute").fill("5")
    await page.getByLabel("Tokens per day").fill("20000")
    await screenshot(page, "console-key-create-rules.png")
    await page.getByRole("button", { name: "Create key", exact: true }).last().click()
    secret = (await page.getByTestId("secret").innerText()).trim()
    expect(secret).toMatch(/^pk_/)
    expect(await keyNamed("mcp-bot")).toMatchObject({
      allowedModels: ["test/m1"],
      allowedTools: ["everything__*"],
      approvalRequired: ["everything__echo"],
      limits: { requestsPerMinute: 5, tokensPerDay: 20000 }
    })
    // The key sees the server's tools, and echo needs a person.
    const validated = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ validateOnly: true, allowedTools: ["everything__echo", "everything__get-tiny-image"] }),
      bearer(secret)
    )
    const report = await validated.json()
    expect(report.tools.map((tool: { name: string; approvalRequired?: boolean }) => [tool.name, tool.approvalRequired]))
      .toEqual([["everything__echo", true], ["everything__get-tiny-image", undefined]])
  })

  it("shows the key's limits with their current use, and edits them", async () => {
    const { page } = console_
    expect(await chat(secret)).toBe(200)
    expect(await chat(secret)).toBe(200)
    await page.getByRole("button", { name: "Done, I have stored it" }).click()
    await page.getByRole("link", { name: "mcp-bot" }).click()
    await page.getByRole("heading", { name: "Key “mcp-bot”" }).waitFor()
    const mine = page.locator(".limits-view").filter({ has: page.getByRole("heading", { name: "This key" }) })
    await limitLine(mine, "Requests per minute").getByText(/^2 of 5 frees one in \d+ s$/).waitFor()
    expect(
      await limitLine(mine, "Requests per minute").getByRole("meter").evaluate((m) => (m as HTMLMeterElement).value)
    )
      .toBe(2)
    // Each scripted answer's tokens, settled against the day's budget.
    await limitLine(mine, "Tokens per day").getByText(/^\d[\d,]* of 20,000 resets \d{4}-\d\d-\d\d 00:00 UTC$/).waitFor()
    const account = page.locator(".limits-view").filter({ has: page.getByRole("heading", { name: /Its account/ }) })
    await account.getByText("No limits.").waitFor()
    await screenshot(page, "console-key-limits.png")

    const form = page.getByRole("form", { name: "Access and limits" })
    await form.getByRole("spinbutton", { name: "Requests per minute" }).fill("")
    await form.getByRole("spinbutton", { name: "Requests at once" }).fill("3")
    await form.getByRole("group", { name: "Tools that wait for a person's approval" })
      .getByRole("checkbox", { name: "echo", exact: true }).uncheck()
    await form.getByRole("button", { name: "Save changes" }).click()
    await form.getByText(/^Saved/).waitFor()
    expect(await keyNamed("mcp-bot")).toMatchObject({
      approvalRequired: [],
      limits: { concurrentRequests: 3, tokensPerDay: 20000 }
    })
    expect((await keyNamed("mcp-bot")).limits.requestsPerMinute).toBeUndefined()
    await limitLine(mine, "Requests at once").getByText(/^0 of 3 ?$/).waitFor()
    expect(await limitLine(mine, "Requests per minute").count()).toBe(0)
  })

  it("at 390 px: the rules and limits fit, nothing scrolls sideways", async () => {
    const { page } = console_
    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole("group", { name: "Limits", exact: true }).scrollIntoViewIfNeeded()
    await noSidewaysScroll(page)
    await screenshot(page, "console-key-limits-390.png")
    await page.getByRole("group", { name: "Limits", exact: true }).screenshot({
      path: `${artifacts}/console-key-limits-390-part.png`
    })
    await page.getByRole("group", { name: "Tools that wait for a person's approval" })
      .screenshot({ path: `${artifacts}/console-key-approvals-390-part.png` })
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it("the operator edits an account's limits and approvals with the keyboard; its page shows their use", async () => {
    const { context, page, leaving, errors } = await openConsole(browser, gateway)
    await signInAsOperator(page)
    await page.getByRole("link", { name: "Accounts" }).click()
    await page.getByRole("link", { name: "Dee" }).click()
    await page.getByRole("heading", { name: "Account “Dee”" }).waitFor()
    await tabTo(page, "input Every tool", 120)
    await page.keyboard.press("Space")
    await tabTo(page, "input Requests per minute")
    await page.keyboard.type("100")
    await tabTo(page, "button Save changes")
    await page.keyboard.press("Enter")
    await page.getByText(/^Saved/).waitFor()
    const account = (await asOperator(gateway, "GET", `/accounts/${deeId}`, undefined)).account
    expect(account).toMatchObject({ approvalRequired: ["*"], limits: { requestsPerMinute: 100 } })
    const panel = page.locator(".limits-in-use")
    await limitLine(panel, "Requests per minute").getByText(/^0 of 100 ?$/).waitFor()
    // A request with one of its keys counts at the account too; Refresh shows it.
    expect(await chat(secret)).toBe(200)
    await panel.getByRole("button", { name: /Refresh/ }).click()
    await limitLine(panel, "Requests per minute").getByText(/^1 of 100 frees one in \d+ s$/).waitFor()
    await screenshot(page, "console-account-page.png")
    await page.setViewportSize({ width: 390, height: 844 })
    await noSidewaysScroll(page)
    await screenshot(page, "console-account-page-390.png")
    expect(leaving).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it("nothing left for another host", () => {
    expect(console_.leaving).toEqual([])
    expect(console_.errors).toEqual([])
  })
})
