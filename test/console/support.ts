import { Redacted } from "effect"
import { mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { expect } from "vitest"
import { type GatewayOptions, startGateway, type TestGateway } from "../support/gateway.ts"

/** The console in Debian's Chromium against the real gateway, with every request to another host refused. */

export const ADMIN_TOKEN = "op-console-token-5e2f81c4a9"

/** Screenshots land here (gitignored) for a person to look at. */
export const artifacts = resolve(import.meta.dirname, "../../test-results")

export const screenshot = async (page: Page, name: string) => {
  mkdirSync(artifacts, { recursive: true })
  await page.screenshot({ path: join(artifacts, name), fullPage: true })
}

export const startConsoleGateway = async (options: GatewayOptions = {}): Promise<TestGateway> => {
  const gateway = await startGateway({
    ...options,
    config: { ...options.config, adminToken: Redacted.make(ADMIN_TOKEN) }
  })
  gateway.upstream.respondWith(() => ({ type: "text", text: "Hello from upstream" }))
  return gateway
}

export const launch = () =>
  chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, chromiumSandbox: false })

const isLoopback = (url: string) => {
  const { hostname, protocol } = new URL(url)
  if (protocol === "data:" || protocol === "blob:" || protocol === "about:") return true
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]"
}

export interface ConsoleContext {
  readonly context: BrowserContext
  readonly page: Page
  /** Requests that were refused for going to another host; a test ends expecting none. */
  readonly leaving: Array<string>
  /** What the page logged as errors (a CSP violation shows here), but the ledger's 404s the console expects. */
  readonly errors: Array<string>
}

export const openConsole = async (
  browser: Browser,
  gateway: TestGateway,
  viewport = { width: 1280, height: 900 },
  /** Where the browser is: its time zone and locale (default: the machine's). */
  place: { readonly timezoneId?: string; readonly locale?: string } = {}
): Promise<ConsoleContext> => {
  const context = await browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"], ...place })
  const leaving: Array<string> = []
  const errors: Array<string> = []
  // Every request the page makes goes through here; one for another host is refused and recorded.
  await context.route("**/*", (route) => {
    const url = route.request().url()
    if (isLoopback(url)) return route.continue()
    leaving.push(url)
    return route.abort("blockedbyclient")
  })
  const page = await context.newPage()
  page.on("console", (message) => {
    if (message.type() === "error" && !/status of 404/.test(message.text())) errors.push(message.text())
  })
  page.on("pageerror", (error) => errors.push(error.message))
  await page.goto(`${gateway.url}/console`)
  return { context, page, leaving, errors }
}

export const signIn = async (page: Page, email: string, password: string) => {
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password", { exact: true }).fill(password)
  await page.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.getByRole("button", { name: "Sign out" }).waitFor()
}

/** Signs in as the operator by pasting the admin token. */
export const signInAsOperator = async (page: Page) => {
  await page.getByText("Operator: sign in with the admin token").click()
  await page.getByLabel(/Admin token/).fill(ADMIN_TOKEN)
  await page.getByRole("button", { name: "Sign in as operator" }).click()
  await page.getByRole("button", { name: "Sign out" }).waitFor()
}

/** Nothing on the page is wider than the viewport: no sideways scroll. */
export const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    await page.evaluate(() => window.innerWidth)
  )

/** What has the focus: its role-ish tag and its accessible text. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null
    const label = element?.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`)?.textContent : null
    return `${element?.tagName.toLowerCase()} ${(label ?? element?.textContent ?? "").trim()}`
  })

/** Tabs until the focus is on `name` (a tag and the start of its text); fails after `presses` presses. */
export const tabTo = async (page: Page, name: string, presses = 40) => {
  for (let pressed = 0; pressed < presses; pressed++) {
    await page.keyboard.press("Tab")
    if ((await focused(page)).startsWith(name)) return
  }
  throw new Error(`Tab never reached ${name}; the focus is on ${await focused(page)}`)
}

/** A call of the admin API with the operator token; the answer's `data`. */
export const asOperator = async (gateway: TestGateway, method: string, path: string, body: unknown) => {
  const response = await fetch(`${gateway.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  expect(response.status).toBeLessThan(300)
  return (await response.json()).data
}

/** An account made through the admin API; its id. */
export const createAccount = async (
  gateway: TestGateway,
  account: { readonly name: string; readonly email: string; readonly password: string }
): Promise<string> =>
  (await asOperator(gateway, "POST", "/accounts", { ...account, allowedModels: ["*"], allowedTools: ["*"] })).account
    .id

/** Ana, an account holder the console tests sign in as. */
export const ANA = { name: "Ana", email: "ana@example.com", password: "correct horse battery" } as const

/** An account made through the admin API and a key of it; the key's id and secret. */
export const createAccountKey = async (
  gateway: TestGateway,
  account: { readonly name: string; readonly email: string; readonly password: string },
  key: Record<string, unknown>
): Promise<{ readonly id: string; readonly secret: string }> => {
  const accountId = await createAccount(gateway, account)
  const created = await asOperator(gateway, "POST", "/keys", { allowedTools: [], ...key, accountId })
  return { id: created.key.id, secret: created.secret }
}

/** What a test file opened, closed in the order that lets each go (any may be missing when its setup failed). */
export const closeConsole = async (
  opened: ConsoleContext | undefined,
  browser: Browser | undefined,
  gateway: TestGateway | undefined
) => {
  await opened?.context.close()
  await browser?.close()
  await gateway?.close()
}

/** Polls `check` until it holds or `ms` pass; answers whether it held. */
export const within = async (ms: number, check: () => Promise<boolean>): Promise<boolean> => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return check()
}

/**
 * An operator's page (`#/<name>`, titled `title`, over the admin API's `api` path) as an account holder finds
 * it: not offered in the navigation and, opened by its address, saying it is the operator's, without asking the
 * API. `more` looks further on the same page.
 */
export const refusedToAccountHolder = async (
  browser: Browser,
  gateway: TestGateway,
  holder: { readonly email: string; readonly password: string },
  operatorPage: { readonly name: string; readonly title: string; readonly api: string },
  more: (page: Page) => Promise<void> = async () => {}
) => {
  const { context, page, leaving, errors } = await openConsole(browser, gateway)
  const asked: Array<string> = []
  page.on("request", (request) => {
    if (request.url().includes(`/admin/v1${operatorPage.api}`)) asked.push(request.url())
  })
  await signIn(page, holder.email, holder.password)
  expect(await page.getByRole("navigation").getByRole("link").allInnerTexts()).toEqual([
    "Keys",
    "Requests",
    "Sandboxes"
  ])
  await page.evaluate((name) => (location.hash = `#/${name}`), operatorPage.name)
  await page.getByRole("heading", { name: operatorPage.title, level: 1 }).waitFor()
  await page.getByText(`${operatorPage.title} are the operator's to manage: sign in with the admin token to see them.`)
    .waitFor()
  await more(page)
  expect(asked).toEqual([])
  expect(leaving).toEqual([])
  expect(errors).toEqual([])
  await context.close()
}
