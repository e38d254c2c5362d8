import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { rmSync } from "node:fs"
import { promptTypes } from "../../src/domain/PromptType.ts"
import { builtinToolNames } from "../../src/tools/builtinToolNames.ts"
import { ToolRegistry } from "../../src/tools/ToolRegistry.ts"
import { withEnvironment } from "../config/fixtures.ts"
import { dataDirectory, testSandboxes } from "../sandbox/support.ts"

const { base, sandboxes } = dataDirectory()
afterAll(() => rmSync(base, { recursive: true, force: true }))

const names = (registry: ToolRegistry["Service"], promptType: (typeof promptTypes)[number]) =>
  registry.forPromptType(promptType).map((tool) => tool.name)

describe("the production ToolRegistry", () => {
  it.effect("holds the catalog in its order and each prompt type's tool set (docs/DESIGN.md §3.12)", () =>
    withEnvironment(
      Effect.gen(function*() {
        const registry = yield* ToolRegistry
        assert.deepStrictEqual(registry.all.map((tool) => tool.name), [...builtinToolNames])
        assert.deepStrictEqual(names(registry, "bossJobsiteSystemPrompt"), [
          "jobsite_reply_generator",
          "bash",
          "computer",
          "browser",
          "workplace_message",
          "chat_message"
        ])
        assert.sameMembers(names(registry, "bossJobsiteLocalSystemPrompt"), [
          "jobsite_reply_generator",
          "workplace_message",
          "chat_message",
          "browser"
        ])
        assert.deepStrictEqual(names(registry, "generalComputerSystemPrompt"), ["bash", "computer", "browser"])
      }).pipe(Effect.provide(ToolRegistry.layer.pipe(Layer.provide(testSandboxes(sandboxes))))),
      {}
    ))
})
