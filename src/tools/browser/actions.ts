import type { Page } from "playwright-core"
import { BrowserError } from "./BrowserError.ts"
import type { BrowserAction } from "./BrowserInput.ts"
import type { BrowserSession } from "./BrowserSession.ts"
import { pngSize } from "./pngSize.ts"
import type { Refusal } from "./policyProxy.ts"
import { readableText } from "./readableText.ts"

/** A media item as the pruner and `browserModelOutput` recognise it. */
export interface Screenshot {
  readonly type: "media"
  readonly mediaType: "image/png"
  /** Base64 of the PNG. */
  readonly data: string
  readonly width: number
  readonly height: number
}

/** What every action answers: where the browser is now, plus what the action found. */
export interface ActionResult {
  readonly action: BrowserAction["action"]
  readonly url: string
  readonly title: string
  readonly status?: number | null
  readonly text?: string
  readonly totalChars?: number
  readonly truncated?: boolean
  readonly selected?: ReadonlyArray<string>
  readonly screenshot?: Screenshot
  /** Requests the outbound policy refused since the previous action (sub-resources, redirects, background fetches). */
  readonly blocked?: ReadonlyArray<Refusal>
}

const DEFAULT_MAX_CHARS = 8_000
const DEFAULT_WAIT_MS = 10_000
const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024
const SETTLE_MS = 5_000

type Found = Omit<ActionResult, "action" | "url" | "title" | "blocked">

// Each refused target once, and not so many that a page hammering an internal address floods the answer.
const MAX_BLOCKED = 20
const distinct = (refusals: ReadonlyArray<Refusal>) =>
  [...new Map(refusals.map((refusal) => [refusal.target, refusal] as const)).values()].slice(0, MAX_BLOCKED)

const describeRefusals = (refusals: ReadonlyArray<Refusal>) =>
  distinct(refusals).map((refusal) => `${refusal.target} (${refusal.reason})`).join("; ")

// A click or key press may start a navigation; let it finish loading, but a page
// that never finishes (a long poll) must not fail an action that did happen.
const settle = (page: Page) => page.waitForLoadState("load", { timeout: SETTLE_MS }).catch(() => undefined)

// `url` was checked to be an absolute http(s) URL when the input was decoded.
const navigate = async (
  session: BrowserSession,
  page: Page,
  url: string,
  timeoutMs: number | undefined
): Promise<Found> => {
  const mark = session.refusals.length
  const refusedHere = () => session.refusals.slice(mark)
  let response
  try {
    response = await page.goto(url, { waitUntil: "load", ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) })
  } catch (error) {
    if (refusedHere().length === 0) throw error
    throw new BrowserError({
      message: `Navigation to ${url} was refused by the browser policy: ${describeRefusals(refusedHere())}`
    })
  }
  // A redirect into a refused address ends on the proxy's refusal page.
  const landedOn = refusedHere().find((refusal) => refusal.target === response?.url())
  if (landedOn !== undefined) {
    throw new BrowserError({
      message: `Navigation to ${url} was refused by the browser policy: ${describeRefusals([landedOn])}`
    })
  }
  return { status: response?.status() ?? null }
}

const extract = async (page: Page, selector: string | undefined, maxChars: number | undefined): Promise<Found> => {
  const locator = page.locator(selector ?? "body")
  await locator.first().waitFor({ state: "attached" })
  const texts = await locator.allInnerTexts()
  return readableText(texts.join("\n\n"), maxChars ?? DEFAULT_MAX_CHARS)
}

const screenshot = async (page: Page, selector: string | undefined, fullPage: boolean | undefined): Promise<Found> => {
  const png = selector === undefined
    ? await page.screenshot({ type: "png", fullPage: fullPage ?? false })
    : await page.locator(selector).screenshot({ type: "png" })
  if (png.byteLength > MAX_SCREENSHOT_BYTES) {
    throw new BrowserError({
      message: `The screenshot is too large (${png.byteLength} bytes); take the viewport or one element instead`
    })
  }
  return { screenshot: { type: "media", mediaType: "image/png", data: png.toString("base64"), ...pngSize(png) } }
}

const waitFor = async (
  page: Page,
  selector: string | undefined,
  text: string | undefined,
  timeoutMs: number | undefined
) => {
  const timeout = timeoutMs ?? DEFAULT_WAIT_MS
  if (selector !== undefined) await page.locator(selector).first().waitFor({ state: "visible", timeout })
  if (text !== undefined) await page.getByText(text).first().waitFor({ state: "visible", timeout })
  if (selector === undefined && text === undefined) await page.waitForTimeout(timeout)
}

const perform = async (session: BrowserSession, page: Page, action: BrowserAction): Promise<Found> => {
  switch (action.action) {
    case "navigate":
      return navigate(session, page, action.url, action.timeoutMs)
    case "click":
      await page.locator(action.selector).click()
      await settle(page)
      return {}
    case "fill":
      await page.locator(action.selector).fill(action.value)
      return {}
    case "press":
      if (action.selector === undefined) await page.keyboard.press(action.key)
      else await page.locator(action.selector).press(action.key)
      await settle(page)
      return {}
    case "select": {
      const selected = await page.locator(action.selector).selectOption([...action.values])
      await settle(page)
      return { selected }
    }
    case "extract":
      return extract(page, action.selector, action.maxChars)
    case "screenshot":
      return screenshot(page, action.selector, action.fullPage)
    case "back": {
      const before = page.url()
      const response = await page.goBack({ waitUntil: "load" })
      // Every page starts on about:blank: stepping back onto it is leaving the site, not going back.
      if (page.url() === "about:blank" && before !== "about:blank") await page.goForward({ waitUntil: "load" })
      // null is also the answer to a same-document step (a #fragment), which does change the URL.
      if (response === null && page.url() === before) throw new BrowserError({ message: "There is no previous page" })
      return { status: response?.status() ?? null }
    }
    case "wait_for":
      await waitFor(page, action.selector, action.text, action.timeoutMs)
      return {}
  }
}

/** Runs one action on the session's current page and reports where the browser ended up. */
export const runAction = async (session: BrowserSession, action: BrowserAction): Promise<ActionResult> => {
  const found = await perform(session, await session.page(), action)
  // A click may have opened a popup, which is now the current page.
  const page = await session.page()
  const blocked = distinct(session.takeRefusals())
  return {
    action: action.action,
    url: page.url(),
    title: await page.title(),
    ...found,
    ...(blocked.length === 0 ? {} : { blocked })
  }
}
