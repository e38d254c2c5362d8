import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { costOf, priceList, requestCost } from "../../src/models/pricing.ts"
import { loadAppConfig, writeConfigFile } from "../config/fixtures.ts"

const pricing = { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 }

describe("pricing", () => {
  it("prices uncached input, cached input and output at their rates", () => {
    // 1,000,000 input of which 400,000 cached, 200,000 output: 0.6 × 2.5 + 0.4 × 1.25 + 0.2 × 10.
    assert.closeTo(
      costOf({ inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 200_000 }, pricing),
      1.5 + 0.5 + 2,
      1e-12
    )
    // Without a cached rate, cached input costs as other input.
    assert.closeTo(
      costOf({ inputTokens: 1_000_000, cachedInputTokens: 400_000 }, { inputPerMTok: 3, outputPerMTok: 15 }),
      3,
      1e-12
    )
    assert.strictEqual(costOf({}, pricing), 0)
  })

  it("prices each model's tokens at its own price; unpriced models cost 0, and no price at all is null", () => {
    const prices = new Map([["p/a", pricing]])
    assert.closeTo(
      requestCost([["p/a", { inputTokens: 100, outputTokens: 10 }], ["p/b", { inputTokens: 1_000_000 }]], prices) ??
        NaN,
      (100 * 2.5 + 10 * 10) / 1_000_000,
      1e-15
    )
    assert.isNull(requestCost([["p/b", { inputTokens: 1_000_000 }]], prices))
    assert.isNull(requestCost([], prices))
  })

  it.effect("reads `pricing` per model from the config file, and rejects a negative price", () =>
    Effect.gen(function*() {
      const model = (extra: Record<string, unknown>) => ({ id: "m1", name: "M1", categories: ["chat"], ...extra })
      const file = (pricing: unknown) =>
        writeConfigFile({
          providers: [{
            id: "local",
            type: "openai-compatible",
            baseURL: "http://127.0.0.1:9/v1",
            models: [model({ pricing }), model({ id: "m2" })]
          }]
        })
      const config = yield* loadAppConfig({ PARLEY_CONFIG: file(pricing) })
      assert.deepStrictEqual([...priceList(config)], [["local/m1", pricing]])
      const error = yield* Effect.flip(loadAppConfig({ PARLEY_CONFIG: file({ inputPerMTok: -1, outputPerMTok: 1 }) }))
      assert.include(error.message, "pricing")
    }))

  it.effect("keeps rows PARLEY_LEDGER_DAYS days, 90 by default", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* loadAppConfig({})).ledgerDays, 90)
      assert.strictEqual((yield* loadAppConfig({ PARLEY_LEDGER_DAYS: "7" })).ledgerDays, 7)
      assert.include((yield* Effect.flip(loadAppConfig({ PARLEY_LEDGER_DAYS: "0" }))).message, "PARLEY_LEDGER_DAYS")
    }))
})
