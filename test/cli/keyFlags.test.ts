import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { expiryOf } from "../../src/cli/keyFlags.ts"

describe("--expires-in", () => {
  it.effect("is a number of whole days from now, at least one; omitted: never", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(1_000)
      assert.isUndefined(yield* expiryOf(Option.none()))
      assert.deepStrictEqual(yield* expiryOf(Option.some(2)), new Date(1_000 + 2 * 86_400_000))
      const refused = yield* Effect.flip(expiryOf(Option.some(0)))
      assert.strictEqual(refused.message, "--expires-in must be a whole number of days, 1 or more.")
    }))
})
