import { Effect } from "effect"
import type { McpServerConfig } from "../config/McpServerConfig.ts"
import type { McpRegistry } from "./McpRegistry.ts"
import type { StoredMcpServer } from "./McpServerStore.ts"

/** A tool of a server by its parley name; a held-back one waits for the operator's refresh. */
export interface McpServerToolView {
  readonly name: string
  readonly heldBack: boolean
}

/**
 * A registered MCP server as the admin API shows it (docs/DESIGN.md §9):
 * header names, never values; its tools from the cached list (or a list call
 * now), or why it cannot list them.
 */
export interface McpServerView {
  readonly id: string
  /** `config`: the config file's, read-only here; `api`: registered through the admin API. */
  readonly source: "config" | "api"
  readonly transport: "http" | "stdio"
  /** null for a stdio server. */
  readonly url: string | null
  readonly headerNames: ReadonlyArray<string>
  readonly enabled: boolean
  readonly status: "reachable" | "unreachable" | "disabled"
  /** Why it is unreachable, free of credentials. */
  readonly reason?: string
  readonly tools: ReadonlyArray<McpServerToolView>
}

type Registration = Pick<McpServerView, "id" | "source" | "transport" | "url" | "headerNames" | "enabled">

export const configRegistration = (server: McpServerConfig): Registration => ({
  id: server.id,
  source: "config",
  transport: server.transport,
  url: server.transport === "http" ? server.url : null,
  headerNames: server.transport === "http" ? Object.keys(server.headers) : [],
  enabled: true
})

export const storedRegistration = (server: StoredMcpServer): Registration => ({
  id: server.id,
  source: "api",
  transport: "http",
  url: server.url,
  headerNames: server.headerNames,
  enabled: server.enabled
})

const byName = (a: McpServerToolView, b: McpServerToolView) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

/** The registration with what the server offers now; an unreachable server is shown so, never a failure. */
export const viewOf = (
  registry: McpRegistry["Service"],
  registration: Registration,
  unreadable: ReadonlyArray<string> = []
): Effect.Effect<McpServerView> => {
  if (!registration.enabled) return Effect.succeed({ ...registration, status: "disabled", tools: [] })
  if (unreadable.length > 0) {
    return Effect.succeed({
      ...registration,
      status: "unreachable",
      reason: `header(s) ${unreadable.join(", ")} were encrypted under another PARLEY_SECRET_KEY: set them again`,
      tools: []
    })
  }
  return Effect.match(registry.toolsOf(registration.id), {
    onFailure: (failure) => ({ ...registration, status: "unreachable" as const, reason: failure.reason, tools: [] }),
    onSuccess: (list) => ({
      ...registration,
      status: "reachable" as const,
      tools: [
        ...list.tools.map((tool) => ({ name: tool.name, heldBack: false })),
        ...list.heldBack.map((name) => ({ name, heldBack: true }))
      ].sort(byName)
    })
  })
}
