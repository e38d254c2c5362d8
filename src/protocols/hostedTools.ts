import { Effect } from "effect"
import type { InternalChatRequest } from "../chat/chatRequest.ts"
import { allowsTool, type ApiKey } from "../domain/ApiKey.ts"
import { InvalidRequest } from "../domain/requestErrors.ts"
import type { Decoded } from "../http/chatProtocol.ts"
import type { McpServerUnavailable } from "../mcp/mcpErrors.ts"
import type { McpRegistry } from "../mcp/McpRegistry.ts"
import { mcpToolName, serverOf } from "../mcp/toolNames.ts"
import { checkTool, isUsable, mergeContext } from "../tools/contextCheck.ts"
import type { ToolRegistry } from "../tools/ToolRegistry.ts"

/** The label of parley's own tools (what its `/mcp` lists for the key); any other label is a configured server's id. */
export const PARLEY_LABEL = "parley"

/**
 * One hosted MCP server a request asks for, whatever its door called it
 * (docs/DESIGN.md §14): Messages' `mcp_servers[i]` (`name`, `url`,
 * `tool_configuration.allowed_tools`), Responses' `{type:"mcp"}` tool
 * (`server_label`, `server_url`, `allowed_tools`).
 */
export interface HostedServerAsk {
  /** `parley`, or the id of an MCP server the operator configured. */
  readonly label: string
  /** The URL the client gave: it must be that configured server's own (parley never connects where a body points). */
  readonly url?: string | undefined
  /** The server's tools by its own names (`echo`, not `docs__echo`); absent: every tool of it the key may use. */
  readonly allowedTools?: ReadonlyArray<string> | undefined
  /** The body's place of the ask, for the issues that name it (`mcp_servers[0]`, `tools[2]`). */
  readonly path: string
}

/** The request's own fields resolving reads: the extra field's `allowedTools`, and what lets a tool run. */
export type HostedRequest = Pick<InternalChatRequest, "allowedTools" | "context" | "toolContext" | "sandboxId">

/** What resolving reads: parley's own tools and the configured MCP servers. */
export interface HostedToolServices {
  readonly tools: ToolRegistry["Service"]
  readonly mcp: McpRegistry["Service"]
}

/** A server tool call as a door shows it: parley's `docs__search` is `search` on server `docs`; a built-in is on `parley`. */
export const hostedToolOf = (toolName: string): { readonly server: string; readonly name: string } => {
  const server = serverOf(toolName)
  return server === undefined
    ? { server: PARLEY_LABEL, name: toolName }
    : { server, name: toolName.slice(server.length + 2) }
}

/** The reverse of `hostedToolOf`: a tool a client names by its server, as parley names it. */
export const parleyToolName = (server: string, name: string): string =>
  server === PARLEY_LABEL ? name : mcpToolName(server, name)

// Labels a key is told of: a server none of whose tools the key may use reads as unknown, so a key cannot probe servers.
const mayUseServer = (key: ApiKey, id: string) =>
  key.allowedTools.some((entry) => entry === "*" || serverOf(entry) === id)

const sameUrl = (asked: string, own: string): boolean => {
  try {
    return new URL(asked).href === new URL(own).href
  } catch {
    return false
  }
}

/**
 * The server tools a request's hosted asks name, as entries of its
 * `allowedTools` (docs/DESIGN.md §14), after the extra field's own
 * `allowedTools`: so the planner applies the key's allow-lists, approvals
 * and context checks exactly as for a named tool. An ask without
 * `allowedTools` names every tool of its server the key may use (parley's
 * as `/mcp` lists them; a configured server's from its tool list, which
 * fails as unavailable when it cannot be listed); one with `allowedTools`
 * names those, so a tool off the key's list is refused as not allowed.
 * parley's tools asked as a whole leave out those this request could not
 * run (context or a sandbox it lacks), as `/mcp` would refuse their calls:
 * a tool named outright is held to the request's `contextStrategy`.
 * Checked before anything connects: an unknown label (400 naming the labels
 * the key may use), a `url` on `parley` or not the configured server's own
 * (400: parley connects only to servers its operator configured), a
 * `parley` tool named with a server's prefix.
 */
export const resolveHostedTools = (
  services: HostedToolServices,
  key: ApiKey,
  asks: ReadonlyArray<HostedServerAsk>,
  request: HostedRequest
): Effect.Effect<ReadonlyArray<string>, InvalidRequest | McpServerUnavailable> => {
  const configured = new Map(services.mcp.servers().map((server) => [server.id, server]))
  const issues: Array<string> = []
  for (const ask of asks) {
    const server = configured.get(ask.label)
    if (ask.label === PARLEY_LABEL) {
      if (ask.url !== undefined) {
        issues.push(`"${ask.path}" names parley's own tools, which take no URL: leave the url out`)
      }
      const prefixed = (ask.allowedTools ?? []).filter((name) => serverOf(name) !== undefined)
      if (prefixed.length > 0) {
        issues.push(
          `"${ask.path}" names ${
            prefixed.map((name) => `"${name}"`).join(", ")
          } among parley's own tools: ask for an MCP server's tools under its own name`
        )
      }
    } else if (server === undefined || !mayUseServer(key, ask.label)) {
      const known = [PARLEY_LABEL, ...[...configured.keys()].filter((id) => mayUseServer(key, id))]
      issues.push(
        `"${ask.path}" names no MCP server parley offers this key ("${ask.label}"); known: ${known.join(", ")}`
      )
    } else if (ask.url !== undefined && (server.transport !== "http" || !sameUrl(ask.url, server.url))) {
      issues.push(
        `"${ask.path}" gives a URL that is not MCP server "${ask.label}"'s: parley connects only to servers its operator configured; leave the url out`
      )
    }
  }
  if (issues.length > 0) return Effect.fail(new InvalidRequest({ issues }))
  return Effect.map(
    Effect.forEach(asks, (ask) => namesOf(services, key, ask, request), { concurrency: "unbounded" }),
    (lists) => [...new Set([...request.allowedTools ?? [], ...lists.flat()])]
  )
}

const namesOf = (
  services: HostedToolServices,
  key: ApiKey,
  ask: HostedServerAsk,
  request: HostedRequest
): Effect.Effect<ReadonlyArray<string>, McpServerUnavailable> => {
  if (ask.allowedTools !== undefined) {
    return Effect.succeed(ask.allowedTools.map((name) => parleyToolName(ask.label, name)))
  }
  if (ask.label === PARLEY_LABEL) {
    const runnable = services.tools.all.filter((tool) =>
      allowsTool(key, tool.name) &&
      isUsable(checkTool(tool, mergeContext(tool.name, request.context, request.toolContext), request.sandboxId))
    )
    return Effect.succeed(runnable.map((tool) => tool.name))
  }
  return Effect.map(
    services.mcp.toolsOf(ask.label),
    (list) => list.tools.flatMap((tool) => allowsTool(key, tool.name) ? [tool.name] : [])
  )
}

/**
 * A door's decoded body with its hosted asks resolved for the key: their
 * tools become the request's `allowedTools`, and `more` adds what the door
 * derives from them (Responses' `require_approval`). Without asks, the
 * body as it was decoded, nothing listed.
 */
export const withHostedTools = <Wire>(
  services: HostedToolServices,
  key: ApiKey,
  { asks, request, wire }: Decoded<Wire> & { readonly asks: ReadonlyArray<HostedServerAsk> },
  more: (allowedTools: ReadonlyArray<string>) => Partial<InternalChatRequest> = () => ({})
): Effect.Effect<Decoded<Wire>, InvalidRequest | McpServerUnavailable> =>
  asks.length === 0
    ? Effect.succeed({ request, wire })
    : Effect.map(
      resolveHostedTools(services, key, asks, request),
      (allowedTools) => ({ request: { ...request, allowedTools, ...more(allowedTools) }, wire })
    )
