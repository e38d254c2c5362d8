import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CONSOLE_CSP } from "../../../src/http/console/consoleRoutes.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"

/** How /console is served (docs/DESIGN.md §6): a fresh page under a strict CSP, hashed assets cached for good. */
let gateway: TestGateway

beforeAll(async () => {
  gateway = await startGateway()
}, 60_000)
afterAll(() => gateway.close())

const assetNames = (html: string) => [...html.matchAll(/\/console\/assets\/([^"]+)"/g)].map((match) => match[1]!)

describe("/console", () => {
  it("serves the page without credentials, never cached, under a CSP that admits only parley itself", async () => {
    for (const path of ["/console", "/console/"]) {
      const page = await fetch(`${gateway.url}${path}`)
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(page.headers.get("cache-control")).toBe("no-cache")
      expect(page.headers.get("content-security-policy")).toBe(CONSOLE_CSP)
      expect(page.headers.get("x-content-type-options")).toBe("nosniff")
      const html = await page.text()
      expect(html).not.toMatch(/https?:\/\//)
      expect(html).not.toMatch(/<script>|<style|style="/)
    }
    expect(CONSOLE_CSP).toMatch(/^default-src 'self';/)
    expect(CONSOLE_CSP).not.toMatch(/unsafe|https?:|\*/)
  })

  it("serves hashed assets with a year's immutable cache, and 404 for any other name", async () => {
    const names = assetNames(await (await fetch(`${gateway.url}/console`)).text())
    expect(names.map((name) => name.replace(/-[A-Za-z0-9_-]{8}\./, "-HASH."))).toEqual([
      "icon-HASH.svg",
      "style-HASH.css",
      "console-HASH.js"
    ])
    for (const name of names) {
      const asset = await fetch(`${gateway.url}/console/assets/${name}`)
      expect(asset.status).toBe(200)
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      expect((await asset.text()).length).toBeGreaterThan(100)
    }
    const script = await (await fetch(`${gateway.url}/console/assets/${names[2]}`)).text()
    // Everything the page needs is in the bundle: no import or fetch of another host.
    expect(script).not.toMatch(/https?:\/\/(?!www\.w3\.org)[a-z]/i)
    const missing = await fetch(`${gateway.url}/console/assets/console-00000000.js`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ error: "NotFound", statusCode: 404 })
  })

  it("answers other methods 405 with Allow", async () => {
    const posted = await fetch(`${gateway.url}/console`, { method: "POST" })
    expect(posted.status).toBe(405)
    expect(posted.headers.get("allow")).toBe("GET, HEAD")
  })
})
