import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { outputReserveOf, PruneOptions } from "../../src/domain/PruneOptions.ts"

const decode = Schema.decodeUnknownEffect(PruneOptions)

describe("PruneOptions", () => {
  it.effect("unspecified fields take the spec's defaults; maxOutputTokens stays unset (it then caps nothing)", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* decode({}), { targetTokens: 80_000, preserveRecentMessages: 3 })
      assert.deepStrictEqual(yield* decode({ preserveRecentMessages: 0, maxOutputTokens: 100_000 }), {
        maxOutputTokens: 100_000,
        targetTokens: 80_000,
        preserveRecentMessages: 0
      })
      assert.strictEqual(outputReserveOf(yield* decode({})), 100_000)
      assert.strictEqual(outputReserveOf(yield* decode({ maxOutputTokens: 0 })), 0)
    }))

  it.effect.each(
    [
      [{ targetTokens: 1.5 }, "must be an integer"],
      [{ maxOutputTokens: -1 }, "must not be negative"],
      [{ preserveRecentMessages: "3" }, "Expected number"],
      [{ targetTokens: null }, "Expected number"],
      [{ targetTokens: 1e300 }, "must be an integer"]
    ] as const
  )(
    "rejects %j: %s",
    ([options, message]) => Effect.map(Effect.flip(decode(options)), (error) => assert.include(error.message, message))
  )

  it.effect.prop("keeps any non-negative integers given", [
    Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
    Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
  ], ([a, b]) =>
    Effect.map(
      decode({ targetTokens: a, preserveRecentMessages: b }),
      (options) => assert.deepStrictEqual(options, { targetTokens: a, preserveRecentMessages: b })
    ))
})
