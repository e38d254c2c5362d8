import { type HostedServerAsk, hostedToolOf, parleyToolName } from "../hostedTools.ts"
import type { McpTool, Tool, ToolNames } from "./request.ts"

/**
 * Hosted MCP tools on `/v1/responses` (docs/DESIGN.md §14): `{type: "mcp"}`
 * tools as the doors' shared asks (../hostedTools.ts), what of them parley
 * refuses, and the ids of the `mcp_approval_request` items it sends.
 */

// Fields that would have parley reach a server with the client's credentials, or one no operator configured.
const refusedFields: ReadonlyArray<readonly [string, string]> = [
  ["authorization", "parley connects to its operator's MCP servers with the operator's credentials"],
  ["headers", "parley connects to its operator's MCP servers with the operator's credentials"],
  ["connector_id", "parley offers its own tools and its operator's MCP servers, no connectors"]
]

const readOnly = (names: unknown) => (names as { readonly read_only?: unknown } | null)?.read_only === true

/**
 * What of the body's `mcp` tools parley refuses before decoding them: the
 * fields above (named, never their values, which may be secrets), a
 * `read_only` filter (parley does not know which tools only read), and a
 * label given twice.
 */
export const mcpToolIssues = (body: unknown): ReadonlyArray<string> => {
  const tools = (body as { readonly tools?: unknown } | null)?.tools
  if (!Array.isArray(tools)) return []
  const issues: Array<string> = []
  const labels = new Set<unknown>()
  tools.forEach((tool: unknown, index) => {
    if (typeof tool !== "object" || tool === null || (tool as { type?: unknown }).type !== "mcp") return
    const fields = tool as Record<string, unknown>
    for (const [field, why] of refusedFields) {
      if (fields[field] !== undefined && fields[field] !== null) {
        issues.push(`"tools[${index}].${field}" is not taken: ${why}; leave it out`)
      }
    }
    const approval = fields["require_approval"] as { readonly always?: unknown; readonly never?: unknown } | null
    for (
      const [at, names] of [["allowed_tools", fields["allowed_tools"]], ["require_approval.always", approval?.always]]
    ) {
      if (readOnly(names)) {
        issues.push(
          `"tools[${index}].${at}.read_only" is not taken: parley does not mark read-only tools; name them in tool_names`
        )
      }
    }
    if (labels.has(fields["server_label"])) {
      issues.push(`"tools[${index}].server_label" repeats the label "${String(fields["server_label"])}"`)
    }
    labels.add(fields["server_label"])
  })
  return issues
}

const namesOf = (filter: ReadonlyArray<string> | ToolNames | null | undefined): ReadonlyArray<string> | undefined =>
  filter == null ? undefined : Array.isArray(filter) ? filter : (filter as ToolNames).tool_names ?? undefined

export const isMcpTool = (tool: Tool): tool is McpTool => tool.type === "mcp"

/** The body's `mcp` tools as asks, each at its place in `tools`. */
export const hostedAsksOf = (tools: ReadonlyArray<Tool>): ReadonlyArray<HostedServerAsk> =>
  tools.flatMap((tool, index) => {
    if (!isMcpTool(tool)) return []
    const allowed = namesOf(tool.allowed_tools)
    return [{
      label: tool.server_label,
      path: `tools[${index}]`,
      ...(tool.server_url == null ? {} : { url: tool.server_url }),
      ...(allowed === undefined ? {} : { allowedTools: allowed })
    }]
  })

/**
 * The tools `require_approval` asks a person for beyond the key's rules
 * (`always`, or `{always: {tool_names}}`), as parley names them: every
 * offered tool of the server, or those named. `never` asks nothing and
 * waives nothing: the key's rules apply whatever the body says.
 */
export const alsoApproved = (tools: ReadonlyArray<Tool>, offered: ReadonlyArray<string>): ReadonlyArray<string> =>
  tools.flatMap((tool) => {
    if (!isMcpTool(tool) || tool.require_approval == null || tool.require_approval === "never") return []
    const always = tool.require_approval === "always" ? {} : tool.require_approval.always
    if (always == null) return []
    const named = namesOf(always)
    return named === undefined
      ? offered.filter((name) => hostedToolOf(name).server === tool.server_label)
      : named.map((name) => parleyToolName(tool.server_label, name))
  })

// The item carries the call's id beside the signed approval id: the signature covers it, and OpenAI's item has no field for it.
const SEPARATOR = "."

/** An `mcp_approval_request` item's id: the signed approval id and the tool call it is for. */
export const approvalItemId = (approvalId: string, toolCallId: string): string =>
  `mcpr_${approvalId}${SEPARATOR}${Buffer.from(toolCallId).toString("base64url")}`

/** The approval id and tool call id an item id carries; `undefined` for an id parley could not have made. */
export const approvalOfItemId = (
  id: string
): { readonly approvalId: string; readonly toolCallId: string } | undefined => {
  const cut = id.lastIndexOf(SEPARATOR)
  if (!id.startsWith("mcpr_") || cut === -1) return undefined
  const toolCallId = Buffer.from(id.slice(cut + 1), "base64url").toString()
  return toolCallId === "" ? undefined : { approvalId: id.slice("mcpr_".length, cut), toolCallId }
}
