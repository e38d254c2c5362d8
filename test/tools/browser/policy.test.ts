import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { callBrowser, configuredPoolLayer, poolLayer, TestSites } from "./support.ts"

const options = { timeout: 30_000, excludeTestServices: true } as const

// The tests' own site (127.0.0.1) is allowed by name; everything else non-public stays refused.
layer(Layer.merge(poolLayer(), TestSites.layer), options)("browser policy with one allowed host", (it) => {
  it.effect("refuses a redirect from an allowed page into a private address", () =>
    Effect.gen(function*() {
      const sites = yield* TestSites
      const failure = yield* Effect.flip(
        callBrowser({ action: "navigate", url: `${sites.site}/redirect-private` }, { request: {} })
      )
      assert.strictEqual(failure.name, "ToolFailure")
      assert.include(
        failure.message,
        `was refused by the browser policy: ${sites.privateTarget}/secret (127.0.0.2 is a loopback address)`
      )
      assert.deepStrictEqual(sites.privateHits, [])
    }))

  it.effect("refuses a host name that resolves to loopback, also behind a redirect", () =>
    Effect.gen(function*() {
      const sites = yield* TestSites
      const port = new URL(sites.site).port
      const direct = yield* Effect.flip(
        callBrowser({ action: "navigate", url: `http://localhost:${port}/second` }, { request: {} })
      )
      assert.include(
        direct.message,
        `refused by the browser policy: http://localhost:${port}/second (host localhost resolves to a loopback address)`
      )
      const redirected = yield* Effect.flip(
        callBrowser({ action: "navigate", url: `${sites.site}/redirect-localhost` }, { request: {} })
      )
      assert.include(
        redirected.message,
        `refused by the browser policy: http://localhost:${port}/second (host localhost resolves to a loopback address)`
      )
      assert.isFalse(sites.siteHits.some((hit) => hit.host.startsWith("localhost")))
    }))

  it.effect("blocks sub-resources, fetches and WebSockets to private addresses and says so", () =>
    Effect.gen(function*() {
      const sites = yield* TestSites
      const request = {}
      const opened = yield* callBrowser({ action: "navigate", url: `${sites.site}/subresource` }, { request })
      assert.strictEqual(opened.title, "Pixels")
      // The fetch and the WebSocket may still be on their way when the load event fires.
      const waited = yield* callBrowser({ action: "wait_for", text: "fetch failed, socket closed" }, { request })
      const refused = [...(opened.blocked ?? []), ...(waited.blocked ?? [])].map((refusal) => refusal.target)
      // The WebSocket asks the proxy for a tunnel to host:port, so that is what was refused.
      assert.sameMembers(refused, [
        `${sites.privateTarget}/pixel.png`,
        `${sites.privateTarget}/api`,
        new URL(sites.privateTarget).host
      ])
      assert.deepStrictEqual(sites.privateHits, [])
    }))
})

// The server's default: no private address at all, the tests' own site included.
layer(Layer.merge(configuredPoolLayer({}), TestSites.layer), options)("browser policy by default", (it) => {
  it.effect("refuses loopback and private addresses over http and https", () =>
    Effect.gen(function*() {
      const sites = yield* TestSites
      const port = new URL(sites.site).port
      const hitsBefore = sites.siteHits.length
      const request = {}
      const cases = [
        [`${sites.site}/`, "127.0.0.1 is a loopback address"],
        [`https://127.0.0.1:${port}/`, "127.0.0.1 is a loopback address"],
        [`http://[::1]:${port}/`, "::1 is a loopback address"],
        [`http://[::ffff:127.0.0.1]:${port}/`, "::ffff:7f00:1 is a loopback address"],
        ["http://10.1.2.3/", "10.1.2.3 is a private address"],
        ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"]
      ] as const
      for (const [url, reason] of cases) {
        const failure = yield* Effect.flip(callBrowser({ action: "navigate", url }, { request }))
        assert.include(failure.message, "refused by the browser policy", url)
        assert.include(failure.message, reason, url)
      }
      assert.strictEqual(sites.siteHits.length, hitsBefore)
    }))
})

layer(Layer.merge(configuredPoolLayer({ outboundAllowPrivate: true }), TestSites.layer), options)(
  "browser policy with PARLEY_OUTBOUND_ALLOW_PRIVATE",
  (it) => {
    it.effect("reaches private addresses when the server allows them", () =>
      Effect.gen(function*() {
        const sites = yield* TestSites
        const opened = yield* callBrowser({ action: "navigate", url: `${sites.site}/redirect-private` }, {
          request: {}
        })
        assert.strictEqual(opened.url, `${sites.privateTarget}/secret`)
        assert.strictEqual(opened.title, "Secret")
        assert.include(sites.privateHits, "/secret")
      }))
  }
)
