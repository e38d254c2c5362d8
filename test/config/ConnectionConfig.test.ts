import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { connectionsFor, softFileLimit } from "../../src/config/ConnectionConfig.ts"
import { loadAppConfig } from "./fixtures.ts"

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             63445                63445                processes
Max open files            20000                1048576              files
Max locked memory         8388608              8388608              bytes
`

describe("the connection settings", () => {
  it("read the soft open-file limit from /proc/self/limits", () => {
    assert.strictEqual(softFileLimit(LIMITS), 20_000)
    assert.isUndefined(softFileLimit("no such line"))
  })

  it("leave a quarter of the descriptors, and one a connection for its provider call", () => {
    assert.strictEqual(connectionsFor(20_000), 7_500)
    assert.strictEqual(connectionsFor(1_024), 384)
    assert.strictEqual(connectionsFor(1), 1)
  })

  it.effect("default to the cap derived from this process's limit, a 10 s headers timeout and a 75 s keep-alive", () =>
    Effect.gen(function*() {
      const config = yield* loadAppConfig({})
      const soft = softFileLimit(readFileSync("/proc/self/limits", "utf8"))
      assert.isDefined(soft)
      assert.deepStrictEqual(config.connections, {
        maxConnections: connectionsFor(soft!),
        headersTimeoutMs: 10_000,
        keepAliveTimeoutMs: 75_000
      })
    }))

  it.effect("take PARLEY_MAX_CONNECTIONS, PARLEY_HEADERS_TIMEOUT and PARLEY_KEEPALIVE_TIMEOUT", () =>
    Effect.gen(function*() {
      const config = yield* loadAppConfig({
        PARLEY_MAX_CONNECTIONS: "500",
        PARLEY_HEADERS_TIMEOUT: "3 seconds",
        PARLEY_KEEPALIVE_TIMEOUT: "90s"
      })
      assert.deepStrictEqual(config.connections, {
        maxConnections: 500,
        headersTimeoutMs: 3_000,
        keepAliveTimeoutMs: 90_000
      })
    }))

  it.effect.each([
    { PARLEY_MAX_CONNECTIONS: "0" },
    { PARLEY_MAX_CONNECTIONS: "many" },
    { PARLEY_HEADERS_TIMEOUT: "soon" },
    { PARLEY_KEEPALIVE_TIMEOUT: "soon" },
    { PARLEY_KEEPALIVE_TIMEOUT: "0s" },
    { PARLEY_KEEPALIVE_TIMEOUT: "2h" }
  ])("refuse %o", (env) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(loadAppConfig(env))
      assert.strictEqual(error._tag, "InvalidConfiguration")
      assert.include(error.message, Object.keys(env)[0]!)
    }))
})
