import { assert, layer } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { BrowserPool } from "../../../src/tools/browser/BrowserPool.ts"
import { callBrowser, TestSites } from "./support.ts"

const twoSessions = BrowserPool.layerWith({
  policy: { allowPrivate: false, allowedHosts: ["127.0.0.1"] },
  timeouts: { actionMs: 2_000, navigationMs: 5_000 },
  maxSessions: 2
})

layer(Layer.merge(twoSessions, TestSites.layer), { timeout: 30_000, excludeTestServices: true })(
  "a full browser pool",
  (it) => {
    it.effect("closes the least recently used idle session to make room", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const pool = yield* BrowserPool
        const first = {}
        const second = {}
        yield* callBrowser({ action: "navigate", url: `${site}/` }, { request: first })
        yield* callBrowser({ action: "navigate", url: `${site}/second` }, { request: second })
        yield* callBrowser({ action: "navigate", url: `${site}/form` }, { request: {} })
        assert.strictEqual(yield* pool.openSessions, 2)
        // The second request's page survived; the first one's was closed.
        assert.strictEqual(
          (yield* callBrowser({ action: "extract", selector: "h1" }, { request: second })).text,
          "Second page"
        )
        assert.strictEqual((yield* callBrowser({ action: "extract" }, { request: first })).url, "about:blank")
      }))

    it.effect("refuses a new session while every session is running an action", () =>
      Effect.gen(function*() {
        const sites = yield* TestSites
        const slow = () => sites.siteHits.filter((hit) => hit.path === "/slow").length
        const before = slow()
        const controller = new AbortController()
        const busy = yield* Effect.forEach([{}, {}], (request) =>
          Effect.forkChild(
            callBrowser({ action: "navigate", url: `${sites.site}/slow` }, { request, signal: controller.signal })
          ))
        yield* Effect.promise(async () => {
          while (slow() < before + 2) {
            await new Promise((resolve) => setTimeout(resolve, 10))
          }
        })
        const refused = yield* Effect.flip(callBrowser({ action: "navigate", url: `${sites.site}/` }, { request: {} }))
        assert.strictEqual(refused.message, "The browser is busy (2 sessions in use); try again shortly")
        controller.abort()
        yield* Effect.forEach(busy, (fiber) => Effect.flip(Fiber.join(fiber)))
      }))
  }
)
