import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import {
  ANA,
  artifacts,
  asOperator,
  closeConsole,
  type ConsoleContext,
  createAccountKey,
  launch,
  openConsole,
  screenshot,
  signIn,
  startConsoleGateway,
  within
} from "./support.ts"

/**
 * What a key's page says, read by a person (issue 35): every time with its
 * zone, one limits section, a usage legend that says something before it is
 * hovered over an axis that holds the window, a kept run named for what it
 * is, and a refused request with the model it asked for. The browser runs in
 * New York, so a time shown in its local zone shows as such.
 */
let gateway: TestGateway
let browser: Browser
let ana: ConsoleContext
let key: { readonly id: string; readonly secret: string }
let backgroundId = ""

/** What the admin API answers the operator. */
const adminGet = (path: string) => asOperator(gateway, "GET", path, undefined)

beforeAll(async () => {
  gateway = await startConsoleGateway()
  key = await createAccountKey(gateway, ANA, {
    name: "ana-bot",
    allowedModels: ["*"],
    limits: { requestsPerMinute: 50 }
  })

  const chat = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(key.secret))
  expect(chat.status).toBe(200)
  await chat.body?.cancel()
  // A Responses request refused before it runs (background needs a stored response), naming its model.
  const refused = await postJson(
    `${gateway.url}/v1/responses`,
    { model: "test/m2", input: "hi", background: true, store: false },
    bearer(key.secret)
  )
  expect(refused.status).toBe(400)
  await refused.body?.cancel()
  // A background response: a kept run under its `resp_` id.
  const background = await postJson(
    `${gateway.url}/v1/responses`,
    { model: "test/m1", input: "hi", background: true },
    bearer(key.secret)
  )
  expect(background.status).toBe(200)
  backgroundId = (await background.json()).id
  expect(backgroundId).toMatch(/^resp_/)
  expect(await within(10_000, async () => (await adminGet(`/requests?keyId=${key.id}`)).requests.length >= 3)).toBe(
    true
  )

  browser = await launch()
  ana = await openConsole(browser, gateway, undefined, { timezoneId: "America/New_York", locale: "en-US" })
  await signIn(ana.page, ANA.email, ANA.password)
  await ana.page.goto(`${gateway.url}/console#/keys/${key.id}`)
  await ana.page.getByRole("heading", { name: "Key “ana-bot”" }).waitFor()
}, 60_000)
afterAll(() => closeConsole(ana, browser, gateway))

/** A time as the console shows it: in UTC, saying so. */
const inUtc = (iso: string) =>
  `${
    new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))
  } UTC`

const fact = (page: Page, name: string) => page.locator(`dt:text-is("${name}") + dd`)

/** Whether the usage chart has colour (a bar, a line) `fromRight` pixels left of its plot's right edge, just above its floor. */
const drawnAt = (page: Page, fromRight: number) =>
  page.evaluate((fromRight) => {
    const chart = document.querySelector(".usage .chart")!
    const canvas = chart.querySelector("canvas")!
    const plot = chart.querySelector(".u-over")!.getBoundingClientRect()
    const drawn = canvas.getBoundingClientRect()
    const scale = canvas.width / drawn.width
    const x = Math.round((plot.right - fromRight - drawn.left) * scale)
    const y = Math.round((plot.bottom - 4 - drawn.top) * scale)
    const [red, green, blue, alpha] = canvas.getContext("2d")!.getImageData(x, y, 1, 1).data
    // Grid lines are grey; the series are coloured.
    return alpha! > 0 && !(red === green && green === blue)
  }, fromRight)

const HOUR = 3_600_000

/** The key's page opened afresh (so its chart ends with the hour now): its usage chart, and the ledger's hours. */
const usageChart = async (page: Page) => {
  await page.getByRole("link", { name: "Keys", exact: true }).click()
  await page.getByRole("link", { name: "ana-bot" }).click()
  const usage = page.getByRole("region", { name: "Usage" })
  const legend = usage.locator(".u-legend")
  await legend.waitFor()
  await usage.scrollIntoViewIfNeeded()
  const byHour = new Map<number, number>(
    (await adminGet(`/usage?keyId=${key.id}&groupBy=hour`)).rows.map((
      row: { bucket: string; requests: number }
    ) => [Date.parse(row.bucket), row.requests])
  )
  return {
    usage,
    value: (series: string) => legend.locator("tr", { hasText: series }).locator(".u-value").innerText(),
    now: Math.floor(Date.now() / HOUR) * HOUR,
    byHour,
    hourText: (at: number) => inUtc(new Date(at).toISOString())
  }
}

describe("a key's page, read by a person", { timeout: 60_000 }, () => {
  it("shows every time in UTC and says so, in a browser elsewhere", async () => {
    const { page } = ana
    const view = (await adminGet(`/keys/${key.id}`)).key
    expect(await fact(page, "Created").innerText()).toBe(inUtc(view.createdAt))
    expect(await fact(page, "Last used").innerText()).toBe(inUtc(view.lastUsedAt))
    const requests = page.getByRole("region", { name: "Recent requests" })
    const newest = (await adminGet(`/requests?keyId=${key.id}`)).requests[0]
    expect(await requests.locator("td[data-label='Time']").first().innerText()).toBe(inUtc(newest.time))
    const runs = page.getByRole("region", { name: "Resumable runs" })
    expect(await runs.locator("td[data-label='Started']").first().innerText()).toMatch(/ UTC$/)
    await screenshot(page, "console-details-times.png")
  })

  it("has one limits section with one Refresh, what is used beside what may be changed", async () => {
    const { page } = ana
    expect(await page.getByRole("heading", { name: /Limits/ }).count()).toBe(0)
    const limits = page.getByRole("group", { name: /^Limits/ })
    expect(await limits.count()).toBe(1)
    expect(await page.getByRole("button", { name: /Refresh/ }).count()).toBe(1)
    // What this key and its account have used, and the field that changes the key's own limit.
    expect(await limits.getByRole("meter").count()).toBe(1)
    await limits.getByText("This key").waitFor()
    await limits.getByText("Its account (all its keys)").waitFor()
    expect(await limits.getByRole("spinbutton", { name: "Requests per minute" }).inputValue()).toBe("50")
    await limits.scrollIntoViewIfNeeded()
    await screenshot(page, "console-details-limits.png")
  })

  it("names a background response's run by what it is", async () => {
    const { page } = ana
    const runs = page.getByRole("region", { name: "Resumable runs" })
    await runs.getByText(backgroundId).waitFor()
    expect(await runs.getByRole("columnheader").allInnerTexts()).not.toContain("Chat id")
    expect(await runs.locator(`td:has-text("${backgroundId}")`).getAttribute("data-label")).toBe("Run id")
    // The door it came in by, which frames its replays.
    const row = runs.getByRole("row").filter({ hasText: backgroundId })
    expect(await row.locator("td[data-label='Protocol']").innerText()).toBe("responses")
    await runs.scrollIntoViewIfNeeded()
    await screenshot(page, "console-details-runs.png")
  })

  it("shows the model a refused Responses request named", async () => {
    const { page } = ana
    const requests = page.getByRole("region", { name: "Recent requests" })
    const refused = requests.getByRole("row").filter({ hasText: "rejected (400)" })
    await refused.waitFor()
    expect(await refused.locator("td[data-label='Protocol']").innerText()).toBe("responses")
    expect(await refused.locator("td[data-label='Model']").innerText()).toBe("test/m2")
    await requests.scrollIntoViewIfNeeded()
    await screenshot(page, "console-details-requests.png")
  })

  it("the usage legend shows the hour now before a hover, and after one", async () => {
    const { page } = ana
    const { usage, value, now, byHour, hourText } = await usageChart(page)
    await expect.poll(() => value("Time")).toBe(hourText(now))
    await expect.poll(() => value("Requests")).toBe(String(byHour.get(now) ?? 0))
    await usage.scrollIntoViewIfNeeded()
    await screenshot(page, "console-details-usage.png")
    await usage.locator(".chart").screenshot({ path: `${artifacts}/console-details-usage-chart.png` })
    // Off the plot after a hover, the hour now again.
    const box = (await usage.locator(".u-over").boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.move(box.x + box.width / 2, box.y - 40)
    await expect.poll(() => value("Time")).toBe(hourText(now))
  })

  it("the usage axis spans twelve hours since the first use, not 48 with one bar at its edge", async () => {
    const { page } = ana
    const { usage, value, now, byHour, hourText } = await usageChart(page)
    // Twelve hours (the fewest it shows), not 48 with one bar at the edge; the plot's edges half an hour past the
    // first and last, so the bar of the hour now is whole, clear of the edge.
    const firstUse = Math.min(...byHour.keys())
    const shown = Math.max(12, (now - firstUse) / HOUR + 2)
    const box = (await usage.locator(".u-over").boundingBox())!
    const hourWidth = box.width / shown
    expect(await drawnAt(page, hourWidth / 2)).toBe(byHour.has(now))
    expect(await drawnAt(page, 1)).toBe(false)
    await page.mouse.move(box.x + hourWidth * 0.25, box.y + box.height / 2)
    await expect.poll(() => value("Time")).toBe(hourText(now - (shown - 1) * HOUR))
    await page.mouse.move(box.x + box.width - hourWidth * 0.25, box.y + box.height / 2)
    await expect.poll(() => value("Time")).toBe(hourText(now))
    await page.mouse.move(box.x + box.width - hourWidth * 1.25, box.y + box.height / 2)
    await expect.poll(() => value("Time")).toBe(hourText(now - HOUR))
    await expect.poll(() => value("Requests")).toBe(String(byHour.get(now - HOUR) ?? 0))
    await screenshot(page, "console-details-usage-hover.png")
    expect(ana.leaving).toEqual([])
    expect(ana.errors).toEqual([])
  })
})
