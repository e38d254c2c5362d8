import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { ToolRegistry } from "../../../src/tools/ToolRegistry.ts"
import { withEnvironment } from "../../config/fixtures.ts"

describe("the production ToolRegistry", () => {
  it.effect("registers the browser tool for its three promptTypes", () =>
    withEnvironment(
      Effect.gen(function*() {
        const browser = (yield* ToolRegistry).get("browser")
        assert.isDefined(browser)
        assert.strictEqual(browser!.category, "browser automation")
        assert.isFalse(browser!.requiresSandbox)
        assert.deepStrictEqual(browser!.requiredContext, [])
        assert.deepStrictEqual(browser!.promptTypes, [
          "bossJobsiteSystemPrompt",
          "bossJobsiteLocalSystemPrompt",
          "generalComputerSystemPrompt"
        ])
      }).pipe(Effect.provide(ToolRegistry.layer)),
      {}
    ))
})
