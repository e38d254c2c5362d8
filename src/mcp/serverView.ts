import { Effect } from "effect"
import type { McpServerConfig } from "../config/McpServerConfig.ts"
import type { McpServerToolView, McpServerView } from "../domain/views.ts"
import type { McpRegistry } from "./McpRegistry.ts"
import type { StoredMcpServer } from "./McpServerStore.ts"

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
