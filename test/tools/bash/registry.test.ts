import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { rmSync } from "node:fs"
import { ToolRegistry } from "../../../src/tools/ToolRegistry.ts"
import { withEnvironment } from "../../config/fixtures.ts"
import { dataDirectory, testSandboxes } from "../../sandbox/support.ts"

const { base, sandboxes } = dataDirectory()
afterAll(() => rmSync(base, { recursive: true, force: true }))

describe("the production ToolRegistry", () => {
  it.effect("registers bash and computer on the gateway's sandbox provider", () =>
    withEnvironment(
      Effect.gen(function*() {
        const registry = yield* ToolRegistry
        for (const name of ["bash", "computer"]) {
          const tool = registry.get(name)
          assert.isDefined(tool, name)
          assert.isTrue(tool!.requiresSandbox)
          assert.strictEqual(tool!.category, "sandbox")
          assert.deepStrictEqual(tool!.promptTypes, ["bossJobsiteSystemPrompt", "generalComputerSystemPrompt"])
        }
        assert.isDefined(registry.get("computer")!.toModelOutput)
        assert.include(registry.get("computer")!.description, "x from 0 to 1023, y from 0 to 767")
      }).pipe(Effect.provide(ToolRegistry.layer.pipe(Layer.provide(testSandboxes(sandboxes))))),
      {}
    ))

  it.effect("has no sandbox tools without a sandbox provider", () =>
    withEnvironment(
      Effect.map(Effect.service(ToolRegistry), (registry) => {
        assert.isUndefined(registry.get("bash"))
        assert.isUndefined(registry.get("computer"))
      }).pipe(Effect.provide(ToolRegistry.layer)),
      {}
    ))
})
