import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import { type PromptType, promptTypes } from "../domain/PromptType.ts"
import { ModelRegistry } from "../models/ModelRegistry.ts"
import { BrowserPool } from "./browser/BrowserPool.ts"
import { makeBrowserTool } from "./browser/browserTool.ts"
import { makeChatMessage } from "./chat/chatMessage.ts"
import { makeJobsiteReplyGenerator } from "./jobsite/jobsiteReplyGenerator.ts"
import { configuredUrlPolicy } from "./outbound/urlPolicy.ts"
import { sandboxTools } from "./sandboxTools.ts"
import type { Tool } from "./Tool.ts"
import { makeWorkplaceMessage } from "./workplace/workplaceMessage.ts"

/**
 * The tools parley can run. The built-in catalog (docs/DESIGN.md §3.12)
 * registers here; tests register their own tools through `layerTest`.
 */
export class ToolRegistry extends Context.Service<ToolRegistry, {
  readonly all: ReadonlyArray<Tool>
  readonly get: (name: string) => Tool | undefined
  /** A prompt type's tool set: the registered tools that name it among their `promptTypes`, in registry order. */
  readonly forPromptType: (promptType: PromptType) => ReadonlyArray<Tool>
}>()("parley/tools/ToolRegistry") {
  static readonly make = (tools: ReadonlyArray<Tool>) => {
    const byName = new Map(tools.map((tool) => [tool.name, tool] as const))
    const sets = new Map(
      promptTypes.map((promptType) =>
        [promptType, tools.filter((tool) => tool.promptTypes.includes(promptType))] as const
      )
    )
    return ToolRegistry.of({
      all: tools,
      get: (name) => byName.get(name),
      forPromptType: (promptType) => sets.get(promptType) ?? []
    })
  }

  /**
   * The built-in tools, built from the services they need. The gateway builds
   * the same AppConfig and ModelRegistry layers: layers are memoized, so these
   * are those instances, and a config failure surfaces there first.
   */
  static readonly layer = Layer.effect(
    ToolRegistry,
    Effect.gen(function*() {
      const models = yield* ModelRegistry
      const config = yield* AppConfig
      const browserPool = yield* BrowserPool
      const policy = configuredUrlPolicy(config)
      // In the catalog's order (docs/DESIGN.md §3.12): GET /tools and the prompt types' sets list them so.
      return ToolRegistry.make([
        makeJobsiteReplyGenerator(models),
        ...(yield* sandboxTools),
        makeBrowserTool(browserPool),
        makeWorkplaceMessage({ policy }),
        makeChatMessage(config, { policy })
      ])
    })
  ).pipe(Layer.provide([ModelRegistry.layer, BrowserPool.layer]), Layer.provide(AppConfig.layer), Layer.orDie)

  static readonly layerTest = (tools: ReadonlyArray<Tool>) => Layer.succeed(ToolRegistry, ToolRegistry.make(tools))
}
