import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import { BrowserPool } from "../../../src/tools/browser/BrowserPool.ts"
import { pngSize } from "../../../src/tools/browser/pngSize.ts"
import { callBrowser, poolLayer, TestSites } from "./support.ts"

// One browser for the whole file; each test is its own request (its own context object).
layer(Layer.merge(poolLayer(), TestSites.layer), { timeout: 30_000, excludeTestServices: true })(
  "browser actions",
  (it) => {
    it.effect("navigates and extracts the page's readable text", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const request = {}
        const opened = yield* callBrowser({ action: "navigate", url: `${site}/` }, { request })
        assert.deepStrictEqual(opened, { action: "navigate", url: `${site}/`, title: "Home", status: 200 })
        const page = yield* callBrowser({ action: "extract" }, { request })
        assert.strictEqual(page.text, "Welcome\n\nOpen roles in Shanghai.\n\nNext page")
        assert.strictEqual(page.truncated, false)
        const heading = yield* callBrowser({ action: "extract", selector: "h1" }, { request })
        assert.strictEqual(heading.text, "Welcome")
      }))

    it.effect("bounds extracted text and says how much there was", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const request = {}
        yield* callBrowser({ action: "navigate", url: `${site}/long` }, { request })
        const page = yield* callBrowser({ action: "extract", maxChars: 500 }, { request })
        assert.strictEqual(page.truncated, true)
        assert.strictEqual(page.text!.length, 501)
        assert.isAbove(page.totalChars!, 20_000)
      }))

    it.effect("clicks a link, then goes back", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const request = {}
        yield* callBrowser({ action: "navigate", url: `${site}/` }, { request })
        const clicked = yield* callBrowser({ action: "click", selector: "#next" }, { request })
        assert.strictEqual(clicked.url, `${site}/second`)
        assert.strictEqual(clicked.title, "Second")
        const back = yield* callBrowser({ action: "back" }, { request })
        assert.strictEqual(back.url, `${site}/`)
        assert.strictEqual(back.title, "Home")
        const none = yield* Effect.flip(callBrowser({ action: "back" }, { request }))
        assert.strictEqual(none.message, "There is no previous page")
      }))

    it.effect("fills a field, selects an option, presses a key and clicks a button", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const request = {}
        yield* callBrowser({ action: "navigate", url: `${site}/form` }, { request })
        yield* callBrowser({ action: "fill", selector: "#name", value: "Li Lei" }, { request })
        const pressed = yield* callBrowser({ action: "press", selector: "#name", key: "Enter" }, { request })
        assert.strictEqual(pressed.action, "press")
        assert.strictEqual(
          (yield* callBrowser({ action: "extract", selector: "#out" }, { request })).text,
          "Entered Li Lei"
        )
        const selected = yield* callBrowser({ action: "select", selector: "#city", values: ["Beijing"] }, { request })
        assert.deepStrictEqual(selected.selected, ["bj"])
        assert.strictEqual(selected.title, "Apply: bj")
        yield* callBrowser({ action: "click", selector: "text=Send" }, { request })
        assert.strictEqual(
          (yield* callBrowser({ action: "extract", selector: "#out" }, { request })).text,
          "Thanks Li Lei from bj"
        )
      }))

    it.effect("waits for text and for a selector, and times out on what never comes", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const request = {}
        yield* callBrowser({ action: "navigate", url: `${site}/late` }, { request })
        yield* callBrowser({ action: "wait_for", text: "Ready now", timeoutMs: 5_000 }, { request })
        yield* callBrowser({ action: "wait_for", selector: "#status", timeoutMs: 1_000 }, { request })
        const missing = yield* Effect.flip(
          callBrowser({ action: "wait_for", selector: "#never", timeoutMs: 300 }, { request })
        )
        assert.include(missing.message, "Timeout 300ms exceeded")
        assert.include(missing.message, "#never")
      }))

    it.effect("takes a PNG screenshot of the viewport and of one element", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const request = {}
        yield* callBrowser({ action: "navigate", url: `${site}/` }, { request })
        const { screenshot } = yield* callBrowser({ action: "screenshot" }, { request })
        assert.strictEqual(screenshot?.mediaType, "image/png")
        const png = Buffer.from(screenshot!.data, "base64")
        assert.deepStrictEqual(pngSize(png), { width: 1280, height: 800 })
        assert.deepStrictEqual({ width: screenshot!.width, height: screenshot!.height }, { width: 1280, height: 800 })
        const heading = yield* callBrowser({ action: "screenshot", selector: "h1" }, { request })
        const size = pngSize(Buffer.from(heading.screenshot!.data, "base64"))
        assert.isTrue(size.width > 0 && size.width < 1280 && size.height > 0 && size.height < 200)
      }))

    it.effect("keeps one page per request and per sandbox, apart from each other", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        yield* callBrowser({ action: "navigate", url: `${site}/second` }, { sandboxId: "sbx_1" })
        yield* callBrowser({ action: "navigate", url: `${site}/` }, { sandboxId: "sbx_2" })
        // A later request on the same sandbox sees the page the first one left.
        assert.strictEqual(
          (yield* callBrowser({ action: "extract", selector: "h1" }, { sandboxId: "sbx_1", request: {} })).text,
          "Second page"
        )
        assert.strictEqual(
          (yield* callBrowser({ action: "extract", selector: "h1" }, { sandboxId: "sbx_2" })).text,
          "Welcome"
        )
        // A new request without a sandbox starts on an empty page.
        assert.strictEqual((yield* callBrowser({ action: "extract" }, { request: {} })).url, "about:blank")
      }))

    it.effect("keeps a request's pages until its run ends, where the caller says when, then closes them", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const pool = yield* BrowserPool
        const before = yield* pool.openSessions
        const request = {}
        const runScope = yield* Scope.make()
        yield* callBrowser({ action: "navigate", url: `${site}/second` }, { request, runScope })
        const read = yield* callBrowser({ action: "extract", selector: "h1" }, { request, runScope })
        assert.strictEqual(read.text, "Second page")
        assert.strictEqual(yield* pool.openSessions, before + 1)
        yield* Scope.close(runScope, Exit.void)
        assert.strictEqual(yield* pool.openSessions, before)
      }))

    it.effect("reports a missing element as a tool failure naming it", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const request = {}
        yield* callBrowser({ action: "navigate", url: `${site}/` }, { request })
        const failure = yield* Effect.flip(callBrowser({ action: "click", selector: "#nope" }, { request }))
        assert.strictEqual(failure.name, "ToolFailure")
        assert.include(failure.message, "Timeout 2000ms exceeded")
        assert.include(failure.message, "#nope")
      }))
  }
)
