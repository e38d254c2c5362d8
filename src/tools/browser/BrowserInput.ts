import { Schema, SchemaTransformation } from "effect"
import { parseWebUrl } from "../outbound/urlPolicy.ts"

// Only web pages: file:, data:, chrome:, javascript: and the like never reach the browser.
const webUrl = Schema.makeFilter((raw: string) => {
  const url = parseWebUrl(raw)
  return typeof url === "string" ? url : undefined
}, { expected: "an absolute http(s) URL" })

const url = Schema.String.check(webUrl).annotate({ description: "navigate: absolute http(s) URL" })
const selector = Schema.String.annotate({
  description: "Playwright selector: CSS (`#send`, `form button`), `text=Apply`, `role=button[name=\"Send\"]`"
})
const value = Schema.String.annotate({ description: "fill: the text to type into the field (replaces its content)" })
const values = Schema.Array(Schema.String).check(Schema.isMinLength(1)).annotate({
  description: "select: option values or labels to select"
})
const key = Schema.String.annotate({ description: "press: a key or chord such as `Enter`, `Tab`, `Control+A`" })
const text = Schema.String.annotate({ description: "wait_for: text that must appear on the page" })
const timeoutMs = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60_000 })).annotate({
  description: "navigate, wait_for: longest wait in milliseconds (at most 60000)"
})
const maxChars = Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 50_000 })).annotate({
  description: "extract: most characters returned (default 8000)"
})
const fullPage = Schema.Boolean.annotate({
  description: "screenshot: the whole scrollable page instead of the viewport"
})

/** What the tool runs: one action with exactly the fields it uses. */
export const BrowserAction = Schema.Union([
  Schema.Struct({ action: Schema.Literal("navigate"), url, timeoutMs: Schema.optionalKey(timeoutMs) }),
  Schema.Struct({ action: Schema.Literal("click"), selector }),
  Schema.Struct({ action: Schema.Literal("fill"), selector, value }),
  Schema.Struct({ action: Schema.Literal("press"), key, selector: Schema.optionalKey(selector) }),
  Schema.Struct({ action: Schema.Literal("select"), selector, values }),
  Schema.Struct({
    action: Schema.Literal("extract"),
    selector: Schema.optionalKey(selector),
    maxChars: Schema.optionalKey(maxChars)
  }),
  Schema.Struct({
    action: Schema.Literal("screenshot"),
    selector: Schema.optionalKey(selector),
    fullPage: Schema.optionalKey(fullPage)
  }),
  Schema.Struct({ action: Schema.Literal("back") }),
  Schema.Struct({
    action: Schema.Literal("wait_for"),
    selector: Schema.optionalKey(selector),
    text: Schema.optionalKey(text),
    timeoutMs: Schema.optionalKey(timeoutMs)
  })
])
export type BrowserAction = typeof BrowserAction.Type

export const actionNames = [
  "navigate",
  "click",
  "fill",
  "press",
  "select",
  "extract",
  "screenshot",
  "back",
  "wait_for"
] as const

/**
 * What the model sees: one flat object. Providers want an object at the root
 * of a tool's parameters (OpenAI rejects a root `anyOf`, Anthropic any root
 * union), so the fields of every action are optional here and decoding into
 * `BrowserAction` checks that the chosen action has the ones it needs.
 */
const BrowserArguments = Schema.Struct({
  action: Schema.Literals(actionNames),
  url: Schema.optionalKey(url),
  selector: Schema.optionalKey(selector),
  value: Schema.optionalKey(value),
  values: Schema.optionalKey(values),
  key: Schema.optionalKey(key),
  text: Schema.optionalKey(text),
  timeoutMs: Schema.optionalKey(timeoutMs),
  maxChars: Schema.optionalKey(maxChars),
  fullPage: Schema.optionalKey(fullPage)
})

export const BrowserInput = BrowserArguments.pipe(
  Schema.decodeTo(BrowserAction, SchemaTransformation.passthrough({ strict: false }))
)
