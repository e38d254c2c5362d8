import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { loadAppConfig } from "../../config/fixtures.ts"

describe("browser settings in AppConfig", () => {
  it.effect("refuse private addresses and list no host by default", () =>
    Effect.gen(function*() {
      const config = yield* loadAppConfig({})
      assert.strictEqual(config.outboundAllowPrivate, false)
      assert.deepStrictEqual(config.outboundAllowedHosts, [])
    }))

  it.effect("read PARLEY_OUTBOUND_ALLOW_PRIVATE and a comma-separated PARLEY_OUTBOUND_ALLOWED_HOSTS", () =>
    Effect.gen(function*() {
      const config = yield* loadAppConfig({
        PARLEY_OUTBOUND_ALLOW_PRIVATE: "true",
        PARLEY_OUTBOUND_ALLOWED_HOSTS: "intranet.example, 10.0.0.8 ,,[fd00::1]"
      })
      assert.strictEqual(config.outboundAllowPrivate, true)
      assert.deepStrictEqual(config.outboundAllowedHosts, ["intranet.example", "10.0.0.8", "[fd00::1]"])
    }))

  it.effect("fail on a flag that is not a boolean", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(loadAppConfig({ PARLEY_OUTBOUND_ALLOW_PRIVATE: "maybe" }))
      assert.include(error.message, "PARLEY_OUTBOUND_ALLOW_PRIVATE")
    }))
})
