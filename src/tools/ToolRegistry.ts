import { Context, Layer } from "effect"
import type { Tool } from "./Tool.ts"

/**
 * The tools parley can run. The built-in catalog (DESIGN §3.12) registers
 * here; tests register their own tools through `layerTest`.
 */
export class ToolRegistry extends Context.Service<ToolRegistry, {
  readonly all: ReadonlyArray<Tool>
  readonly get: (name: string) => Tool | undefined
}>()("parley/tools/ToolRegistry") {
  static readonly make = (tools: ReadonlyArray<Tool>) => {
    const byName = new Map(tools.map((tool) => [tool.name, tool] as const))
    return ToolRegistry.of({ all: tools, get: (name) => byName.get(name) })
  }

  /** The built-in tools. Each arrives with its own module (sandbox, business, messaging, browser). */
  static readonly layer = Layer.succeed(ToolRegistry, ToolRegistry.make([]))

  static readonly layerTest = (tools: ReadonlyArray<Tool>) => Layer.succeed(ToolRegistry, ToolRegistry.make(tools))
}
