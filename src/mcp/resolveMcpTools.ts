import { Effect, Result } from "effect"
import { allowsTool, type ApiKey } from "../domain/ApiKey.ts"
import type { Tool } from "../tools/Tool.ts"
import type { McpServerUnavailable } from "./mcpErrors.ts"
import { McpToolHeldBack } from "./mcpErrors.ts"
import type { McpRegistry } from "./McpRegistry.ts"
import { serverOf } from "./toolNames.ts"

/** The MCP tools a request names, as planning sees them. */
export interface McpToolLookup {
  /** The named tools their servers offer now. */
  readonly get: (name: string) => Tool | undefined
  /** Named tools that cannot be offered now, with why: the server cannot list its tools, or the tool is held back. */
  readonly unavailable: ReadonlyArray<{ readonly name: string; readonly error: McpServerUnavailable | McpToolHeldBack }>
}

/**
 * Reachability is judged when a request is planned (docs/DESIGN.md §9): each
 * server that a name in `names` points at is asked for its tools (its cached
 * list while fresh). Only names the key may use are looked up, so a key
 * cannot probe which servers and tools exist; a name of no registered server
 * is left to planning to refuse as an unknown tool.
 */
export const resolveMcpTools = Effect.fnUntraced(function*(
  names: ReadonlyArray<string> | undefined,
  key: ApiKey,
  registry: McpRegistry["Service"]
) {
  const wanted = (names ?? []).filter((name) => {
    const server = serverOf(name)
    return server !== undefined && registry.has(server) && allowsTool(key, name)
  })
  if (wanted.length === 0) return empty
  const servers = [...new Set(wanted.map((name) => serverOf(name)!))]
  const lists = new Map(
    yield* Effect.forEach(
      servers,
      (server) => Effect.map(Effect.result(registry.toolsOf(server)), (list) => [server, list] as const),
      { concurrency: "unbounded" }
    )
  )
  const found = new Map<string, Tool>()
  const unavailable: Array<McpToolLookup["unavailable"][number]> = []
  for (const name of wanted) {
    const server = serverOf(name)!
    const list = lists.get(server)!
    if (Result.isFailure(list)) {
      unavailable.push({ name, error: list.failure })
      continue
    }
    const tool = list.success.tools.find((candidate) => candidate.name === name)
    if (tool !== undefined) found.set(name, tool)
    else if (list.success.heldBack.includes(name)) {
      unavailable.push({ name, error: new McpToolHeldBack({ tool: name, server }) })
    }
  }
  return { get: (name) => found.get(name), unavailable } satisfies McpToolLookup
})

const empty: McpToolLookup = { get: () => undefined, unavailable: [] }
