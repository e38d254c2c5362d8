import { mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { type Browser, chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"

/** Screenshots land here (gitignored) for a person to look at. */
const artifacts = resolve(import.meta.dirname, "../../test-results")

let gateway: TestGateway
let browser: Browser

beforeAll(async () => {
  gateway = await startGateway()
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, chromiumSandbox: false })
})
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
})

const isLoopback = (url: string) => {
  const { hostname, protocol } = new URL(url)
  if (protocol === "data:" || protocol === "blob:" || protocol === "about:") return true
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]"
}

describe("the API reference at /docs in Chromium", { timeout: 60_000 }, () => {
  it("renders the endpoints with nothing fetched from another host, and bearer examples", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const leaving: Array<string> = []
    // Every request the page makes goes through here; one for another host is refused and recorded.
    await context.route("**/*", (route) => {
      const url = route.request().url()
      if (isLoopback(url)) return route.continue()
      leaving.push(url)
      return route.abort("blockedbyclient")
    })
    await page.goto(`${gateway.url}/docs`, { waitUntil: "networkidle" })
    for (const path of ["/api/v1/chat", "/api/v1/models", "/api/v1/sandboxes"]) {
      await page.getByText(path, { exact: false }).first().waitFor({ timeout: 15_000 })
    }
    const text = await page.locator("body").innerText()
    expect(text).toContain("parley")
    expect(text).not.toContain("Share")
    expect(text).not.toMatch(/Basic\s+username:password/)
    mkdirSync(artifacts, { recursive: true })
    await page.screenshot({ path: join(artifacts, "docs-page.png"), fullPage: false })
    // The examples show the key as a bearer token: open one operation's example request.
    await page.goto(`${gateway.url}/docs#tag/catalog/GET/api/v1/models`, { waitUntil: "networkidle" })
    await page.getByText("Authorization: Bearer", { exact: false }).first().waitFor({ timeout: 15_000 })
    await page.screenshot({ path: join(artifacts, "docs-page-models.png"), fullPage: false })
    expect(leaving).toEqual([])
    await context.close()
  })
})
