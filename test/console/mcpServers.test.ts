import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { bearer } from "../support/http.ts"
import { httpServerEntry, type RunningServer, startEverythingHttp } from "../support/mcp/everything.ts"
import { startFakeMcpServer } from "../support/mcp/fakeServer.ts"
import {
  ADMIN_TOKEN,
  type ConsoleContext,
  createAccount,
  launch,
  noSidewaysScroll,
  openConsole,
  refusedToAccountHolder,
  screenshot,
  signInAsOperator,
  startConsoleGateway,
  tabTo
} from "./support.ts"

/**
 * The operator's MCP servers page (docs/DESIGN.md §6, §9) against the
 * gateway's own /admin/v1/mcp-servers: the reference server from the config
 * file, and servers added in the page (the reference server again, a server
 * whose tool's schema the test changes, one that does not answer).
 */
let everything: RunningServer
let fake: Awaited<ReturnType<typeof startFakeMcpServer>>
let gateway: TestGateway
let browser: Browser
let op: ConsoleContext

const CREDENTIAL = "Bearer typed-once-4d91ce"
const cy = { name: "Cy", email: "cy@example.com", password: "a fifth long password" }

beforeAll(async () => {
  everything = await startEverythingHttp()
  fake = await startFakeMcpServer({ type: "object", properties: { word: { type: "string" } } })
  gateway = await startConsoleGateway({
    config: {
      mcpServers: [httpServerEntry("filed", everything.url)]
    }
  })
  await createAccount(gateway, cy)
  browser = await launch()
  op = await openConsole(browser, gateway)
  await signInAsOperator(op.page)
  await op.page.getByRole("link", { name: "MCP servers" }).click()
  await op.page.getByRole("heading", { name: "MCP servers", level: 1 }).waitFor()
}, 60_000)
afterAll(async () => {
  await op?.context.close()
  await browser?.close()
  await gateway?.close()
  await everything?.close()
  await fake?.close()
})

/** The API's answer as text, to look for a secret in it. */
const apiText = async (path: string) => {
  const response = await fetch(`${gateway.url}/admin/v1/mcp-servers${path}`, { headers: bearer(ADMIN_TOKEN) })
  return { status: response.status, text: await response.text() }
}
const server = async (id: string) => JSON.parse((await apiText(`/${id}`)).text).data.server

/** A server's row, found by its id cell (on a narrow screen too, where cells carry their column's name). */
const rowOf = (page: Page, id: string) =>
  page.locator("tbody tr").filter({ has: page.locator("td[data-label='Id']").getByText(id, { exact: true }) })

describe("the MCP servers page", { timeout: 120_000 }, () => {
  it("shows the config file's server read-only, with its tools, and refreshes it", async () => {
    const { page } = op
    const filed = rowOf(page, "filed")
    await filed.getByText("config file (read-only here)").waitFor()
    await filed.getByText(everything.url).waitFor()
    await filed.getByText("reachable", { exact: true }).waitFor()
    await filed.locator("summary").click()
    await filed.getByText("echo", { exact: true }).waitFor()
    expect(await filed.getByRole("button").allTextContents()).toEqual(["Refresh filed"])
    await filed.getByRole("button", { name: "Refresh filed" }).click()
    const count = (await server("filed")).tools.length
    await page.getByText(`Refreshed filed: it lists ${count} tools; changed tools are accepted.`).waitFor()
  })

  it("adds a server with a header with the keyboard alone; the value is never shown again", async () => {
    const { page } = op
    const posted = page.waitForRequest((request) =>
      request.method() === "POST" && request.url().endsWith("/admin/v1/mcp-servers")
    )
    await tabTo(page, "button Add server")
    await page.keyboard.press("Enter")
    await tabTo(page, "input Id")
    await page.keyboard.type("ref")
    await tabTo(page, "input URL")
    await page.keyboard.type(everything.url)
    await tabTo(page, "button Add a header")
    await page.keyboard.press("Enter")
    await tabTo(page, "input Header 1 name")
    await page.keyboard.type("Authorization")
    await tabTo(page, "input Header 1 value")
    await page.keyboard.type(CREDENTIAL)
    await screenshot(page, "console-mcp-add.png")
    await tabTo(page, "button Add server")
    await page.keyboard.press("Enter")
    expect((await posted).postDataJSON()).toEqual({
      id: "ref",
      url: everything.url,
      headers: { Authorization: CREDENTIAL }
    })
    await page.getByText(/^Added ref: it lists \d+ tools\.$/).waitFor()
    const ref = rowOf(page, "ref")
    await ref.getByText("added here").waitFor()
    await ref.getByText("Authorization", { exact: true }).waitFor()
    await ref.locator("summary").click()
    await ref.getByText("get-tiny-image", { exact: true }).waitFor()
    expect(await server("ref")).toMatchObject({ source: "api", headerNames: ["Authorization"], status: "reachable" })

    // Neither the page nor the API shows the value again, nor does the edit form hold it.
    expect(await page.content()).not.toContain("typed-once")
    for (const path of ["", "/ref"]) expect((await apiText(path)).text).not.toContain("typed-once")
    await ref.getByRole("button", { name: "Edit ref" }).click()
    await page.getByText("Now: Authorization.").waitFor()
    expect(await page.locator("input[type=password]").count()).toBe(0)
    expect(await page.content()).not.toContain("typed-once")
    await page.getByRole("button", { name: "Cancel" }).click()
  })

  it("offers the added server's tools in a key's allow-list editor", async () => {
    // The server's tools reach the catalog once its connection lists them: slower on a loaded machine.
    const catalogued = async () => {
      const response = await fetch(`${gateway.url}/admin/v1/catalog`, { headers: bearer(ADMIN_TOKEN) })
      return (await response.text()).includes(`"ref__echo"`)
    }
    const deadline = Date.now() + 20_000
    while (!(await catalogued())) {
      if (Date.now() > deadline) throw new Error("the catalog never listed ref__echo")
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const { context, page } = await openConsole(browser, gateway)
    await signInAsOperator(page)
    const { id } = await gateway.createKey({ tools: [] })
    await page.evaluate((key) => (location.hash = `#/keys/${key}`), id)
    const offered = page.getByRole("group", { name: "Tools it may use" }).getByRole("group", { name: "MCP server ref" })
    await offered.getByRole("checkbox", { name: "echo", exact: true }).waitFor()
    await offered.getByRole("checkbox", { name: /All tools of ref/ }).waitFor()
    await context.close()
  })

  it("disables and enables a server, and deletes it after a confirmation", async () => {
    const { page } = op
    const ref = rowOf(page, "ref")
    await ref.getByRole("button", { name: "Disable ref" }).click()
    await page.getByRole("dialog", { name: "Disable MCP server ref?" }).getByRole("button", { name: "Disable" }).click()
    await ref.getByText("disabled", { exact: true }).waitFor()
    await ref.getByText("none listed").waitFor()
    expect(await server("ref")).toMatchObject({ enabled: false, status: "disabled" })

    await ref.getByRole("button", { name: "Enable ref" }).click()
    await page.getByRole("dialog", { name: "Enable MCP server ref?" }).getByRole("button", { name: "Enable" }).click()
    await ref.getByText("reachable", { exact: true }).waitFor()
    expect(await server("ref")).toMatchObject({ enabled: true, status: "reachable" })

    // Cancelled, nothing happens; confirmed, it is gone.
    await ref.getByRole("button", { name: "Delete ref" }).click()
    const asked = page.getByRole("dialog", { name: "Delete MCP server ref?" })
    await asked.getByRole("button", { name: "Cancel" }).click()
    await asked.waitFor({ state: "detached" })
    expect((await apiText("/ref")).status).toBe(200)
    await ref.getByRole("button", { name: "Delete ref" }).click()
    await asked.getByRole("button", { name: "Delete" }).click()
    await ref.waitFor({ state: "detached" })
    expect((await apiText("/ref")).status).toBe(404)
  })

  it("marks a tool whose schema changed as held back until a refresh; an edit replaces or removes the headers", async () => {
    const { page } = op
    await page.getByRole("button", { name: "Add server" }).click()
    await page.getByLabel("Id (its tools are named id__tool)").fill("docs")
    await page.getByLabel("URL (streamable HTTP)").fill(fake.url)
    await page.getByRole("button", { name: "Add a header" }).click()
    await page.getByLabel("Header 1 name").fill("X-Key")
    await page.getByLabel("Header 1 value").fill("k-1")
    await page.getByRole("button", { name: "Add server" }).click()
    await page.getByText("Added docs: it lists 1 tool.").waitFor()
    expect(fake.headers.at(-1)?.["x-key"]).toBe("k-1")

    fake.schema = { type: "object", properties: { word: { type: "string" }, language: { type: "string" } } }
    await page.reload()
    const docs = rowOf(page, "docs")
    await docs.getByText("1 tool, 1 held back").waitFor()
    await docs.getByRole("listitem").filter({ hasText: "lookup" }).getByText("held back: refresh to accept").waitFor()
    await screenshot(page, "console-mcp-held-back.png")
    await docs.getByRole("button", { name: "Refresh docs" }).click()
    await page.getByText("Refreshed docs: it lists 1 tool; changed tools are accepted.").waitFor()
    await docs.locator("summary").filter({ hasText: /^1 tool of docs$/ }).waitFor()
    expect(await docs.getByText("held back").count()).toBe(0)
    expect((await server("docs")).tools).toEqual([{ name: "docs__lookup", heldBack: false }])

    // Headers typed replace them all…
    await docs.getByRole("button", { name: "Edit docs" }).click()
    await page.getByRole("button", { name: "Add a header" }).click()
    await page.getByLabel("Header 1 name").fill("Authorization")
    await page.getByLabel("Header 1 value").fill("Bearer k-2")
    await page.getByRole("button", { name: "Save server" }).click()
    await page.getByText("Saved docs: it lists 1 tool.").waitFor()
    expect((await server("docs")).headerNames).toEqual(["Authorization"])
    expect(fake.headers.at(-1)).toMatchObject({ authorization: "Bearer k-2" })
    expect(fake.headers.at(-1)?.["x-key"]).toBeUndefined()
    // …and "send none" removes them (once the list shows the saved headers: the note comes before its reload).
    await docs.locator("td[data-label='Headers']").getByText("Authorization", { exact: true }).waitFor()
    await docs.getByRole("button", { name: "Edit docs" }).click()
    await page.getByLabel("Send no headers (remove Authorization)").check()
    await page.getByRole("button", { name: "Save server" }).click()
    await page.getByText("Saved docs: it lists 1 tool.").waitFor()
    await docs.locator("td[data-label='Headers']").getByText("none", { exact: true }).waitFor()
    expect((await server("docs")).headerNames).toEqual([])
    expect(fake.headers.at(-1)?.authorization).toBeUndefined()
  })

  it("shows a server that does not answer as unreachable, with why", async () => {
    const { page } = op
    await page.getByRole("button", { name: "Add server" }).click()
    await page.getByLabel("Id (its tools are named id__tool)").fill("down")
    await page.getByLabel("URL (streamable HTTP)").fill("http://127.0.0.1:9/mcp")
    await page.getByRole("button", { name: "Add server" }).click()
    const added = page.getByText(/^Added down: it is unreachable: /)
    await added.waitFor()
    const { reason } = await server("down")
    expect(reason).toEqual(expect.any(String))
    expect(await added.textContent()).toBe(`Added down: it is unreachable: ${reason}.`)
    const down = rowOf(page, "down")
    await down.getByText("unreachable", { exact: true }).waitFor()
    await down.getByText(reason, { exact: true }).waitFor()
  })

  it("fits 1280 px and 390 px without sideways scrolling", async () => {
    const { page, leaving, errors } = op
    await screenshot(page, "console-mcp-servers.png")
    await page.setViewportSize({ width: 390, height: 844 })
    await rowOf(page, "filed").locator("summary").click()
    await noSidewaysScroll(page)
    await screenshot(page, "console-mcp-servers-390.png")
    await page.getByRole("button", { name: "Add server" }).click()
    await page.getByRole("button", { name: "Add a header" }).click()
    await noSidewaysScroll(page)
    await screenshot(page, "console-mcp-add-390.png")
    await page.getByRole("button", { name: "Cancel" }).click()
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(leaving).toEqual([])
    expect(errors).toEqual([])
  })

  it("is not offered to an account holder, who is told so at its address", () =>
    refusedToAccountHolder(
      browser,
      gateway,
      cy,
      { name: "mcp-servers", title: "MCP servers", api: "/mcp-servers" },
      async (page) => {
        await screenshot(page, "console-mcp-not-operator.png")
        await page.evaluate(() => (location.hash = "#/accounts"))
        await page.getByText("Accounts are the operator's to manage").waitFor()
      }
    ))
})
