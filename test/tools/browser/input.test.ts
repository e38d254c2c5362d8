import { assert, describe, it } from "@effect/vitest"
import { JsonSchema, Result, Schema } from "effect"
import { BrowserError, toBrowserError } from "../../../src/tools/browser/BrowserError.ts"
import { BrowserInput } from "../../../src/tools/browser/BrowserInput.ts"
import { readableText } from "../../../src/tools/browser/readableText.ts"

const decode = Schema.decodeUnknownResult(Schema.toCodecJson(BrowserInput))

describe("BrowserInput", () => {
  it("shows providers one object at the root, with every action listed", () => {
    const { schema } = JsonSchema.toDocumentDraft07(Schema.toJsonSchemaDocument(BrowserInput))
    const root = schema as {
      type?: string
      anyOf?: unknown
      required?: Array<string>
      properties: Record<string, { enum?: Array<string> }>
    }
    assert.strictEqual(root.type, "object")
    assert.isUndefined(root.anyOf)
    assert.deepStrictEqual(root.required, ["action"])
    assert.deepStrictEqual(root.properties.action?.enum, [
      "navigate",
      "click",
      "fill",
      "press",
      "select",
      "extract",
      "screenshot",
      "back",
      "wait_for"
    ])
  })

  it("decodes each action to exactly its own fields", () => {
    assert.deepStrictEqual(
      Result.getOrThrow(decode({ action: "click", selector: "#a", url: "http://x", value: "v" })),
      { action: "click", selector: "#a" }
    )
    assert.deepStrictEqual(Result.getOrThrow(decode({ action: "select", selector: "#c", values: ["a"] })), {
      action: "select",
      selector: "#c",
      values: ["a"]
    })
    assert.deepStrictEqual(Result.getOrThrow(decode({ action: "back" })), { action: "back" })
  })

  it.each([
    [{ action: "navigate" }, "url"],
    [{ action: "fill", selector: "#a" }, "value"],
    [{ action: "select", selector: "#a", values: [] }, "values"],
    [{ action: "press" }, "key"],
    [{ action: "extract", maxChars: 10 }, "maxChars"],
    [{ action: "wait_for", timeoutMs: 600_000 }, "timeoutMs"],
    [{ action: "scroll" }, "action"],
    [{ action: "navigate", url: "file:///etc/passwd" }, "only http and https URLs are allowed, not file:"],
    [{ action: "navigate", url: "data:text/html,<h1>hi</h1>" }, "only http and https URLs are allowed, not data:"],
    [{ action: "navigate", url: "chrome://version" }, "only http and https URLs are allowed, not chrome:"],
    [{ action: "navigate", url: "javascript:alert(1)" }, "only http and https URLs are allowed, not javascript:"],
    [{ action: "navigate", url: "/relative" }, "not an absolute URL: /relative"]
  ])("rejects %j, naming %s", (input, field) => {
    const result = decode(input)
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) assert.include(result.failure.message, field)
  })
})

describe("readableText", () => {
  it("drops trailing spaces and blank-line runs, keeps paragraphs", () => {
    assert.deepStrictEqual(readableText("  Title  \r\n\r\n\r\n\r\nBody\u00a0text \n", 100), {
      text: "Title\n\nBody text",
      totalChars: 16,
      truncated: false
    })
  })

  it("cuts at maxChars and reports the full length", () => {
    assert.deepStrictEqual(readableText("abcdefghij", 4), { text: "abcd…", totalChars: 10, truncated: true })
  })
})

describe("toBrowserError", () => {
  it("keeps a Playwright error's summary and what it was waiting for, not the whole call log", () => {
    const error = new Error(
      "locator.click: Timeout 2000ms exceeded.\nCall log:\n  - waiting for locator('#send')\n  - retrying\n  - retrying"
    )
    assert.strictEqual(
      toBrowserError(error).message,
      "locator.click: Timeout 2000ms exceeded. — waiting for locator('#send')"
    )
  })

  it("passes its own errors through", () => {
    const own = new BrowserError({ message: "There is no previous page" })
    assert.strictEqual(toBrowserError(own), own)
  })
})
