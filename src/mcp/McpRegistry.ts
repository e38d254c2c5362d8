import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import type { McpServerConfig } from "../config/McpServerConfig.ts"
import { allowsTool, type ApiKey } from "../domain/ApiKey.ts"
import type { Tool } from "../tools/Tool.ts"
import { McpServerUnavailable } from "./mcpErrors.ts"
import { makeMcpServerSource, type McpServerSource, type ServerTools } from "./McpServerSource.ts"

/**
 * The MCP servers parley takes tools from (docs/DESIGN.md §9). The config
 * file's servers are registered at startup; `add` and `remove` change the set
 * while the gateway runs (one call each), for the admin API.
 */
export class McpRegistry extends Context.Service<McpRegistry, {
  readonly has: (server: string) => boolean
  readonly servers: () => ReadonlyArray<McpServerConfig>
  /** A server's tools: its cached list while fresh, else a tools/list (an unreachable server fails). */
  readonly toolsOf: (server: string) => Effect.Effect<ServerTools, McpServerUnavailable>
  /** The MCP tools `key` may use, across the servers that can list theirs now. */
  readonly toolsFor: (key: ApiKey) => Effect.Effect<ReadonlyArray<Tool>>
  /** Changes whenever what the servers offer may have changed: a key for caches of answers built from it. */
  readonly generation: () => number
  /** Registers a server (replacing one of the same id); its tools are listed on first use. */
  readonly add: (server: McpServerConfig) => Effect.Effect<void>
  readonly remove: (server: string) => Effect.Effect<void>
  /** The operator's refresh: accepts changed input schemas, releasing held-back tools, and lists again. */
  readonly refresh: (server: string) => Effect.Effect<ServerTools, McpServerUnavailable>
}>()("parley/mcp/McpRegistry") {
  static readonly make = Effect.gen(function*() {
    const sources = new Map<string, McpServerSource>()
    let generation = 0
    const changed = () => {
      generation++
    }
    const unknown = (server: string) => new McpServerUnavailable({ server, reason: "no such server" })

    const remove = (server: string) =>
      Effect.suspend(() => {
        const source = sources.get(server)
        if (source === undefined) return Effect.void
        sources.delete(server)
        changed()
        return source.close
      })
    const add = (config: McpServerConfig) =>
      Effect.andThen(
        remove(config.id),
        Effect.sync(() => {
          sources.set(config.id, makeMcpServerSource(config, changed))
          changed()
        })
      )

    yield* Effect.addFinalizer(() => Effect.forEach([...sources.keys()], remove, { discard: true }))

    return McpRegistry.of({
      has: (server) => sources.has(server),
      servers: () => Array.from(sources.values(), (source) => source.config),
      toolsOf: (server) => sources.get(server)?.tools ?? Effect.fail(unknown(server)),
      toolsFor: (key) =>
        Effect.map(
          Effect.forEach(
            Array.from(sources.values()),
            (source) => Effect.orElseSucceed(source.tools, () => ({ tools: [], heldBack: [] })),
            { concurrency: "unbounded" }
          ),
          (lists) => lists.flatMap((list) => list.tools.filter((tool) => allowsTool(key, tool.name)))
        ),
      generation: () => generation,
      add,
      remove,
      refresh: (server) => sources.get(server)?.refresh ?? Effect.fail(unknown(server))
    })
  })

  /** No servers until some are added (tests of what does not use them). */
  static readonly layerEmpty = Layer.effect(McpRegistry, McpRegistry.make)

  /** The config file's servers (`mcpServers`), closed (stdio processes stopped) with the layer. */
  static readonly layer = Layer.effect(
    McpRegistry,
    Effect.gen(function*() {
      const registry = yield* McpRegistry.make
      const config = yield* AppConfig
      yield* Effect.forEach(config.mcpServers, registry.add, { discard: true })
      return registry
    })
  )
}
