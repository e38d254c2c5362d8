import { Schema } from "effect"
import { McpServerId, McpServerUrl } from "../config/McpServerConfig.ts"

/** Bodies and the view of /admin/v1/mcp-servers (docs/DESIGN.md §9). */

const HeaderName = Schema.String.check(
  Schema.isPattern(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, { message: "an HTTP header name such as Authorization" })
)
// RFC 9110 field-value characters: visible ASCII, space, tab and obs-text.
const HeaderValue = Schema.String.check(
  Schema.isPattern(/^[\t\x20-\x7e\x80-\xff]*$/, { message: "a header value on one line, in Latin-1" }),
  Schema.isMaxLength(8192)
)
const Headers = Schema.Record(HeaderName, HeaderValue).check(
  Schema.makeFilter((headers: Readonly<Record<string, string>>) => {
    const names = Object.keys(headers).map((name) => name.toLowerCase())
    if (names.length > 32) return "at most 32 headers"
    return new Set(names).size === names.length || "each header once (names compare without case)"
  })
).annotate({
  description: "Sent with every request to the server (credentials): encrypted at rest, never answered or logged"
})

const ServerId = McpServerId.annotate({
  description: "Lower-case letters, digits and dashes, at most 32: prefixes the server's tools (<id>__<tool>)"
})

export const CreateMcpServer = Schema.Struct({
  id: ServerId,
  url: McpServerUrl.annotate({ description: "The server's streamable-HTTP endpoint" }),
  headers: Schema.optional(Headers)
}).annotate({ identifier: "CreateMcpServer" })

export const UpdateMcpServer = Schema.Struct({
  url: Schema.optional(McpServerUrl),
  headers: Schema.optional(Headers.annotate({ description: "Replaces every header; {} sends none" })),
  enabled: Schema.optional(Schema.Boolean.annotate({ description: "false: its tools are not offered" }))
}).annotate({ identifier: "UpdateMcpServer" })

/** Fields a stdio server would carry: such servers come from the config file alone. */
export const stdioFields = ["command", "args", "env"] as const

export const McpServerView = Schema.Struct({
  id: Schema.String,
  source: Schema.Literals(["config", "api"]).annotate({
    description: "config: from the config file, read-only here; api: registered through this API"
  }),
  transport: Schema.Literals(["http", "stdio"]),
  url: Schema.NullOr(Schema.String).annotate({ description: "null for a stdio server" }),
  headerNames: Schema.Array(Schema.String).annotate({ description: "Names only: values are never answered" }),
  enabled: Schema.Boolean,
  status: Schema.Literals(["reachable", "unreachable", "disabled"]),
  reason: Schema.optionalKey(Schema.String).annotate({ description: "Why it is unreachable" }),
  tools: Schema.Array(Schema.Struct({
    name: Schema.String.annotate({ description: "The parley name, <server>__<tool>" }),
    heldBack: Schema.Boolean.annotate({
      description: "Its input schema changed: not offered until the server is refreshed"
    })
  }))
}).annotate({ identifier: "McpServer" })
