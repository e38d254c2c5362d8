import { assert, layer } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { BrowserPool } from "../../../src/tools/browser/BrowserPool.ts"
import { callBrowser, poolLayer, TestSites } from "./support.ts"

const waitUntil = (condition: () => boolean) =>
  Effect.promise(async () => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10))
  })

// A fresh context's first action can take seconds on a loaded machine; these tests are about cancelling.
layer(Layer.merge(poolLayer(undefined, 10_000), TestSites.layer), { timeout: 30_000, excludeTestServices: true })(
  "browser cancellation",
  (it) => {
    it.effect("an aborted signal closes the request's context and its connections at once", () =>
      Effect.gen(function*() {
        const sites = yield* TestSites
        const pool = yield* BrowserPool
        const request = {}
        const controller = new AbortController()
        const dropped = sites.nextSlowDrop()
        const slowHits = () => sites.siteHits.filter((hit) => hit.path === "/slow").length
        const before = slowHits()
        const call = yield* Effect.forkChild(
          callBrowser({ action: "navigate", url: `${sites.site}/slow` }, { request, signal: controller.signal })
        )
        yield* waitUntil(() => slowHits() > before)
        assert.strictEqual(yield* pool.openSessions, 1)

        const abortedAt = Date.now()
        controller.abort()
        const failure = yield* Effect.flip(Fiber.join(call))
        assert.strictEqual(failure.message, "The browser action was cancelled")
        yield* Effect.promise(() => dropped)
        assert.isBelow(Date.now() - abortedAt, 1_000)
        yield* waitUntil(() => Effect.runSync(pool.openSessions) === 0)

        // The same request starts over on a fresh context.
        const fresh = yield* callBrowser({ action: "extract" }, { request })
        assert.strictEqual(fresh.url, "about:blank")
      }))

    it.effect("interrupting the tool call closes the context as well", () =>
      Effect.gen(function*() {
        const sites = yield* TestSites
        const pool = yield* BrowserPool
        const dropped = sites.nextSlowDrop()
        const slowHits = () => sites.siteHits.filter((hit) => hit.path === "/slow").length
        const before = slowHits()
        const call = yield* Effect.forkChild(
          callBrowser({ action: "navigate", url: `${sites.site}/slow` }, { sandboxId: "sbx_cancel" })
        )
        yield* waitUntil(() => slowHits() > before)
        const sessionsWhileRunning = yield* pool.openSessions
        yield* Fiber.interrupt(call)
        yield* Effect.promise(() => dropped)
        yield* waitUntil(() => Effect.runSync(pool.openSessions) === sessionsWhileRunning - 1)
      }))

    it.effect("a signal aborted before the call starts runs nothing", () =>
      Effect.gen(function*() {
        const sites = yield* TestSites
        const pool = yield* BrowserPool
        const sessions = yield* pool.openSessions
        const hits = sites.siteHits.length
        const failure = yield* Effect.flip(
          callBrowser({ action: "navigate", url: `${sites.site}/` }, { request: {}, signal: AbortSignal.abort() })
        )
        assert.strictEqual(failure.message, "The browser action was cancelled")
        assert.strictEqual(yield* pool.openSessions, sessions)
        assert.strictEqual(sites.siteHits.length, hits)
      }))
  }
)
