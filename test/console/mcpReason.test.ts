import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import {
  type ConsoleContext,
  launch,
  openConsole,
  screenshot,
  signInAsOperator,
  startConsoleGateway
} from "./support.ts"

/**
 * An unreachable MCP server's reason is shown whole and readable (docs/DESIGN.md
 * §6, §9), however long the API's is: a name lookup, a refusal, a TLS failure
 * with its URL. The list's answer is the API's shape with such a reason in it,
 * so the page is tested on the text, whatever src/mcp says today.
 */
let gateway: TestGateway
let browser: Browser
let op: ConsoleContext

const URL_ = "https://tools.internal.example-corporation.test:8443/mcp/v1/streamable-http-endpoint-for-the-team"
const REASON = `TLS handshake with ${URL_} failed: unable to verify the first certificate ` +
  "(UNABLE_TO_VERIFY_LEAF_SIGNATURE); the server's certificate chain is incomplete or signed by an unknown authority."

const view = {
  id: "faraway",
  transport: "http",
  url: URL_,
  source: "api",
  enabled: true,
  headerNames: [],
  status: "unreachable",
  reason: REASON,
  tools: []
}

beforeAll(async () => {
  gateway = await startConsoleGateway()
  browser = await launch()
  op = await openConsole(browser, gateway)
  await op.context.route(
    /\/admin\/v1\/mcp-servers$/,
    (route) => route.fulfill({ json: { success: true, data: { servers: [view] } } })
  )
  await op.context.route(
    /\/admin\/v1\/mcp-servers\/faraway\/refresh$/,
    (route) => route.fulfill({ json: { success: true, data: { server: view } } })
  )
  await signInAsOperator(op.page)
  await op.page.getByRole("link", { name: "MCP servers" }).click()
}, 60_000)
afterAll(async () => {
  await op?.context.close()
  await browser?.close()
  await gateway?.close()
})

/** Whether `text` is all there and on the screen: whole, no line of it past the viewport's edge. */
const shownWhole = async (page: Page, text: string) => {
  const reason = page.getByText(text, { exact: true })
  await reason.waitFor()
  const box = (await reason.boundingBox())!
  const width = await page.evaluate(() => window.innerWidth)
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(width)
  expect(await reason.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
}

describe("an unreachable MCP server's reason", { timeout: 60_000 }, () => {
  it("is shown whole at 1280 px and at 390 px", async () => {
    const { page } = op
    const cell = page.locator("td[data-label='Status'] .reason")
    expect(await cell.innerText()).toBe(REASON)
    await shownWhole(page, REASON)
    await screenshot(page, "console-mcp-reason.png")
    await page.setViewportSize({ width: 390, height: 844 })
    await shownWhole(page, REASON)
    // What a refresh says of it, above the table.
    await page.getByRole("button", { name: "Refresh faraway" }).click()
    // The reason's own full stop ends the note: one, not two.
    await shownWhole(page, `Refreshed faraway: it is unreachable: ${REASON}`)
    await screenshot(page, "console-mcp-reason-narrow.png")
    expect(op.leaving).toEqual([])
    expect(op.errors).toEqual([])
  })
})
