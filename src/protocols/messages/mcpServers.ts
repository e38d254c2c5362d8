import type { HostedServerAsk } from "../hostedTools.ts"
import type { McpServer } from "./request.ts"

/**
 * What of `mcp_servers` parley refuses before resolving it (docs/DESIGN.md
 * §14): an `authorization_token`, for parley reaches only its operator's
 * servers with the operator's credentials and would never send the
 * client's (the issue names the field, never its value); a name given
 * twice.
 */
export const mcpServerIssues = (body: unknown): ReadonlyArray<string> => {
  const servers = (body as { readonly mcp_servers?: unknown } | null)?.mcp_servers
  if (!Array.isArray(servers)) return []
  const issues: Array<string> = []
  const names = new Set<unknown>()
  servers.forEach((server: unknown, index) => {
    if (typeof server !== "object" || server === null) return
    const { authorization_token: token, name } = server as { authorization_token?: unknown; name?: unknown }
    if (token !== undefined && token !== null) {
      issues.push(
        `"mcp_servers[${index}].authorization_token" is not taken: parley connects to its operator's MCP servers with the operator's credentials; leave it out`
      )
    }
    if (names.has(name)) issues.push(`"mcp_servers[${index}].name" repeats the server name "${String(name)}"`)
    names.add(name)
  })
  return issues
}

/** `mcp_servers` as the doors' shared asks (../hostedTools.ts): a server with `enabled: false` offers no tools. */
export const hostedAsksOf = (servers: ReadonlyArray<McpServer>): ReadonlyArray<HostedServerAsk> =>
  servers.map((server, index) => {
    const config = server.tool_configuration
    const allowed = config?.enabled === false ? [] : config?.allowed_tools ?? undefined
    return {
      label: server.name,
      path: `mcp_servers[${index}]`,
      ...(server.url === undefined ? {} : { url: server.url }),
      ...(allowed === undefined ? {} : { allowedTools: allowed })
    }
  })
