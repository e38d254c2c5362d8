import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { pruneDefaults } from "../../src/domain/PruneOptions.ts"
import { budgetOf } from "../../src/prune/Pruner.ts"

const budget = (...args: Parameters<typeof budgetOf>) => Effect.runSync(Effect.result(budgetOf(...args)))

describe("budgetOf (docs/DESIGN.md §3.11)", () => {
  it("is targetTokens when the window is unknown", () => {
    expect(budget(pruneDefaults, undefined)).toMatchObject({ _tag: "Success", success: 80_000 })
  })

  it("reserves maxOutputTokens from the window", () => {
    expect(budget(pruneDefaults, 128_000)).toMatchObject({ success: 28_000 })
    expect(budget({ ...pruneDefaults, maxOutputTokens: 8_000 }, 128_000)).toMatchObject({ success: 80_000 })
  })

  it("reserves no more than the model can generate", () => {
    expect(budget(pruneDefaults, 128_000, 16_384)).toMatchObject({ success: 80_000 })
    expect(budget({ ...pruneDefaults, targetTokens: 60_000 }, 64_000, 8_192)).toMatchObject({ success: 55_808 })
  })

  it("refuses a target above the window and a reserve that leaves no room", () => {
    expect(budget({ ...pruneDefaults, targetTokens: 200_000 }, 128_000)).toMatchObject({ _tag: "Failure" })
    const noRoom = budget({ ...pruneDefaults, targetTokens: 1_000 }, 8_000)
    expect(noRoom).toMatchObject({ _tag: "Failure" })
    if (noRoom._tag === "Failure") expect(noRoom.failure.message).toContain("leaves no room for input")
  })
})
