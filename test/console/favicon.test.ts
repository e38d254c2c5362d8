import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { launch, screenshot, startConsoleGateway } from "./support.ts"

/** /docs and /console name an icon that parley serves, and /favicon.ico answers with it: no 404 in either page. */
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

describe("the favicon", { timeout: 60_000 }, () => {
  it("GET /favicon.ico answers the console's SVG icon", async () => {
    const icon = await fetch(`${gateway.url}/favicon.ico`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get("content-type")).toBe("image/svg+xml")
    expect(await icon.text()).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    const posted = await fetch(`${gateway.url}/favicon.ico`, { method: "POST" })
    expect(posted.status).toBe(405)
  })

  for (const path of ["/docs", "/console"]) {
    it(`${path} names an icon that is served, and the browser is refused nothing it asks for`, async () => {
      // No request routing here: Playwright aborts every */favicon.ico request of a routed page itself.
      const context = await browser.newContext()
      const page = await context.newPage()
      const errors: Array<string> = []
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text())
      })
      await page.goto(`${gateway.url}${path}`, { waitUntil: "networkidle" })
      const href = await page.locator("link[rel~='icon']").first().getAttribute("href", { timeout: 15_000 })
      expect(href).not.toBeNull()
      // Both the named icon and /favicon.ico (what a browser that skips the link asks for) are images it can draw.
      for (const url of new Set([href!, "/favicon.ico"])) {
        const drawn = await page.evaluate(async (src) => {
          const image = new Image()
          image.src = src
          await image.decode()
          return image.naturalWidth
        }, url)
        expect(drawn).toBeGreaterThan(0)
      }
      await screenshot(page, `favicon${path.replace("/", "-")}.png`)
      expect(errors).toEqual([])
      await context.close()
    })
  }
})
