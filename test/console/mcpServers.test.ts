import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { bearer } from "../support/http.ts"
import { ADMIN_TOKEN, launch, openConsole, screenshot, startConsoleGateway, tabTo } from "./support.ts"

/**
 * The operator's MCP servers page (docs/DESIGN.md §9). Its API is served here
 * by the test, as §9's contract states it, whatever this branch's gateway
 * offers; the last test uses the gateway's own.
 */
let gateway: TestGateway
let browser: Browser

beforeAll(async () => {
  gateway = await startConsoleGateway()
  browser = await launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
})

interface Sent {
  readonly method: string
  readonly path: string
  readonly body: unknown
}

/** `/admin/v1/mcp-servers` in memory, by the contract; every request it answered, in order. */
const contractApi = async (context: BrowserContext): Promise<Array<Sent>> => {
  const servers = new Map<string, { id: string; url: string; headerNames: Array<string>; enabled: boolean }>()
  const sent: Array<Sent> = []
  const view = (id: string) => ({
    ...servers.get(id)!,
    tools: [{ name: `${id}__search`, description: "Search" }, { name: `${id}__fetch`, description: "Fetch" }]
  })
  const fail = (status: number, error: string, message: string) => ({
    status,
    json: { error, message, statusCode: status }
  })
  await context.route(/\/admin\/v1\/mcp-servers(\/.*)?$/, (route) => {
    const request = route.request()
    const path = new URL(request.url()).pathname.slice("/admin/v1/mcp-servers".length)
    const body = request.postData() === null ? undefined : request.postDataJSON()
    sent.push({ method: request.method(), path, body })
    if (request.headers().authorization !== `Bearer ${ADMIN_TOKEN}`) {
      return route.fulfill(fail(401, "Unauthorized", "Invalid admin token"))
    }
    const [, id, action] = path.split("/")
    const answer = (() => {
      if (id === undefined) {
        if (request.method() === "GET") {
          return { json: { success: true, data: { servers: [...servers.keys()].map(view) } } }
        }
        if (servers.has(body.id)) return fail(409, "Conflict", `An MCP server with id ${body.id} already exists`)
        servers.set(body.id, {
          id: body.id,
          url: body.url,
          headerNames: Object.keys(body.headers ?? {}),
          enabled: true
        })
        return { status: 201, json: { success: true, data: { server: view(body.id) } } }
      }
      if (!servers.has(id)) return fail(404, "NotFound", `No MCP server ${id}`)
      if (action === "refresh") return { json: { success: true, data: { server: view(id) } } }
      if (request.method() === "DELETE") {
        servers.delete(id)
        return { json: { success: true, data: { id, deleted: true } } }
      }
      if (request.method() === "PATCH") {
        const server = servers.get(id)!
        servers.set(id, {
          ...server,
          ...(body.url === undefined ? {} : { url: body.url }),
          ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
          ...(body.headers === undefined ? {} : { headerNames: Object.keys(body.headers) })
        })
      }
      return { json: { success: true, data: { server: view(id) } } }
    })()
    return route.fulfill(answer)
  })
  return sent
}

const asOperator = async (page: Page) => {
  await page.getByText("Operator: sign in with the admin token").click()
  await page.getByLabel(/Admin token/).fill(ADMIN_TOKEN)
  await page.getByRole("button", { name: "Sign in as operator" }).click()
  await page.getByRole("link", { name: "MCP servers" }).click()
  await page.getByRole("heading", { name: "MCP servers", level: 1 }).waitFor()
}

describe("the MCP servers page", { timeout: 120_000 }, () => {
  it("adds, lists with tools, refreshes, edits, disables and deletes a server by the contract", async () => {
    const { context, page, leaving, errors } = await openConsole(browser, gateway)
    const sent = await contractApi(context)
    await asOperator(page)
    await page.getByText("No MCP servers yet").waitFor()

    // With the keyboard alone.
    await tabTo(page, "button Add server")
    await page.keyboard.press("Enter")
    await tabTo(page, "input Id")
    await page.keyboard.type("docs")
    await tabTo(page, "input URL")
    await page.keyboard.type("https://docs.example.com/mcp")
    await tabTo(page, "button Add a header")
    await page.keyboard.press("Enter")
    await tabTo(page, "input Header 1 name")
    await page.keyboard.type("Authorization")
    await tabTo(page, "input Header 1 value")
    await page.keyboard.type("Bearer s3cret-value")
    await screenshot(page, "console-mcp-add.png")
    await tabTo(page, "button Add server")
    await page.keyboard.press("Enter")
    const row = page.getByRole("row", { name: /docs\.example\.com/ })
    await row.getByText("enabled").waitFor()
    expect(sent.filter((s) => s.method === "POST")).toEqual([{
      method: "POST",
      path: "",
      body: { id: "docs", url: "https://docs.example.com/mcp", headers: { Authorization: "Bearer s3cret-value" } }
    }])
    // The header's value is gone from the page; its name stays.
    expect(await page.content()).not.toContain("s3cret-value")
    await row.getByText("Authorization").waitFor()
    await row.getByText("2 tools").click()
    await row.getByText("search", { exact: true }).waitFor()
    await row.getByText("fetch", { exact: true }).waitFor()

    // The same id again: the API's refusal is shown, nothing added.
    await page.getByRole("button", { name: "Add server" }).click()
    await page.getByLabel("Id (its tools are named id__tool)").fill("docs")
    await page.getByLabel("URL (streamable HTTP)").fill("https://other.example.com/mcp")
    await page.getByRole("button", { name: "Add server" }).click()
    await page.getByRole("alert").getByText("An MCP server with id docs already exists").waitFor()
    await page.getByRole("button", { name: "Cancel" }).click()

    await row.getByRole("button", { name: "Refresh docs" }).click()
    await page.getByText("Refreshed docs: its tools were listed again.").waitFor()
    expect(sent.findLast((s) => s.method === "POST")).toEqual({
      method: "POST",
      path: "/docs/refresh",
      body: undefined
    })

    await row.getByRole("button", { name: "Edit docs" }).click()
    expect(await page.getByLabel("URL (streamable HTTP)").inputValue()).toBe("https://docs.example.com/mcp")
    await page.getByLabel("URL (streamable HTTP)").fill("https://docs.example.com/v2/mcp")
    await page.getByRole("button", { name: "Save server" }).click()
    await page.getByRole("row", { name: /v2\/mcp/ }).waitFor()
    expect(sent.find((s) => s.method === "PATCH")).toEqual({
      method: "PATCH",
      path: "/docs",
      body: { url: "https://docs.example.com/v2/mcp" }
    })

    await page.getByRole("button", { name: "Disable docs" }).click()
    await page.getByRole("dialog", { name: "Disable MCP server docs?" }).getByRole("button", { name: "Disable" })
      .click()
    await page.getByRole("row", { name: /v2\/mcp/ }).getByText("disabled").waitFor()
    expect(sent.findLast((s) => s.method === "PATCH")?.body).toEqual({ enabled: false })
    await screenshot(page, "console-mcp-servers.png")

    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(page, "console-mcp-servers-390.png")

    await page.getByRole("button", { name: "Delete docs" }).click()
    await page.getByRole("dialog", { name: "Delete MCP server docs?" }).getByRole("button", { name: "Delete" }).click()
    await page.getByText("No MCP servers yet").waitFor()
    expect(sent.filter((s) => s.method === "DELETE")).toEqual([{ method: "DELETE", path: "/docs", body: undefined }])
    expect(leaving).toEqual([])
    // The refused duplicate is the one failed request the browser logs.
    expect(errors.filter((error) => !/status of 409/.test(error))).toEqual([])
    await context.close()
  })

  it("on this gateway: the page says plainly when the gateway has no MCP servers API", async () => {
    const { context, page, leaving, errors } = await openConsole(browser, gateway)
    await asOperator(page)
    const listed = await fetch(`${gateway.url}/admin/v1/mcp-servers`, { headers: bearer(ADMIN_TOKEN) })
    await listed.body?.cancel()
    if (listed.status === 404) {
      await page.getByText("This gateway does not manage MCP servers here yet").waitFor()
      expect(await page.getByRole("button", { name: "Add server" }).count()).toBe(0)
    } else {
      expect(listed.status).toBe(200)
      await page.getByText("No MCP servers yet").waitFor()
    }
    expect(leaving).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
