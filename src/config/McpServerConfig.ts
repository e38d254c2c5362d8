import { type Redacted, Schema } from "effect"

/** A server id prefixes its tools' names (`docs__search`): lower case, digits and dashes (docs/DESIGN.md §9). */
export const McpServerId = Schema.String.check(Schema.isPattern(/^[a-z0-9-]{1,32}$/))

/** Where a streamable-HTTP server answers. */
export const McpServerUrl = Schema.String.check(
  Schema.isPattern(/^https?:\/\/\S+$/, { message: "an http:// or https:// URL such as https://example.com/mcp" })
)

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0))

const common = {
  id: McpServerId,
  /** Longest tool call before it fails as a tool error (default 60 000). */
  callTimeoutMs: Schema.optionalKey(PositiveInt),
  /** Longest connect or tools/list when a request is planned (default 10 000); longer is an unavailable server. */
  listTimeoutMs: Schema.optionalKey(PositiveInt)
}

/** An entry of the config file's `mcpServers` array: a streamable-HTTP server or a local stdio one. */
export const McpServerEntry = Schema.Union([
  Schema.Struct({
    ...common,
    url: McpServerUrl,
    /** Sent with every request (credentials): redacted, never logged or answered. */
    headers: Schema.optionalKey(Schema.Record(Schema.String, Schema.RedactedFromValue(Schema.String)))
  }),
  Schema.Struct({
    ...common,
    command: Schema.NonEmptyString,
    args: Schema.optionalKey(Schema.Array(Schema.String)),
    env: Schema.optionalKey(Schema.Record(Schema.String, Schema.RedactedFromValue(Schema.String)))
  })
])
export type McpServerEntry = typeof McpServerEntry.Type

/** 60 s unless the entry says otherwise (docs/DESIGN.md §9). */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000
/** A request waits this long at most for a server's tool list before planning goes on without it. */
export const DEFAULT_MCP_LIST_TIMEOUT_MS = 10_000

interface McpServerBase {
  readonly id: string
  readonly callTimeoutMs: number
  readonly listTimeoutMs: number
}

/** An MCP server parley takes tools from, as registered by the operator. */
export type McpServerConfig =
  | McpServerBase & {
    readonly transport: "http"
    readonly url: string
    readonly headers: Readonly<Record<string, Redacted.Redacted<string>>>
  }
  | McpServerBase & {
    readonly transport: "stdio"
    readonly command: string
    readonly args: ReadonlyArray<string>
    readonly env: Readonly<Record<string, Redacted.Redacted<string>>>
  }

export const toMcpServerConfig = (entry: McpServerEntry): McpServerConfig => {
  const base = {
    id: entry.id,
    callTimeoutMs: entry.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS,
    listTimeoutMs: entry.listTimeoutMs ?? DEFAULT_MCP_LIST_TIMEOUT_MS
  }
  return "url" in entry
    ? { ...base, transport: "http", url: entry.url, headers: entry.headers ?? {} }
    : { ...base, transport: "stdio", command: entry.command, args: entry.args ?? [], env: entry.env ?? {} }
}
