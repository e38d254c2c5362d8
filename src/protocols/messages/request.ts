import { Schema } from "effect"
import { ModelId } from "../../domain/ChatRequest.ts"
import { Name } from "../../domain/wellFormed.ts"
import { extraFieldSchemas } from "../doorBody.ts"
import { between, Count, Text } from "../fieldSchemas.ts"

/**
 * The body of `POST /v1/messages` as parley takes it (docs/DESIGN.md §14):
 * Anthropic's fields parley honours, those Claude Code sends that ask for
 * nothing parley must do, and the spec's server-tool fields as extra
 * top-level fields. The turn rules (a `tool_use` answered by the next
 * message's `tool_result`) are the mapping's (./conversation.ts).
 */

const unit = between(0, 1)
// Prompt-caching marks: taken, for the provider decides what it caches.
const CacheControl = Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)))

export const TextBlock = Schema.Struct({
  type: Schema.Literal("text"),
  text: Text,
  cache_control: CacheControl,
  citations: Schema.optionalKey(Schema.NullOr(Schema.Array(Schema.Unknown)))
})

export const ImageBlock = Schema.Struct({
  type: Schema.Literal("image"),
  source: Schema.Union([
    Schema.Struct({ type: Schema.Literal("base64"), media_type: Text, data: Text }),
    Schema.Struct({ type: Schema.Literal("url"), url: Text })
  ]),
  cache_control: CacheControl
})
export type ImageBlock = typeof ImageBlock.Type

export const ToolUseBlock = Schema.Struct({
  type: Schema.Literal("tool_use"),
  id: Text,
  name: Name,
  input: Schema.Unknown,
  cache_control: CacheControl
})

export const ToolResultBlock = Schema.Struct({
  type: Schema.Literal("tool_result"),
  tool_use_id: Text,
  content: Schema.optionalKey(Schema.Union([Text, Schema.Array(Schema.Union([TextBlock, ImageBlock]))])),
  is_error: Schema.optionalKey(Schema.Boolean),
  cache_control: CacheControl
})
export type ToolResultBlock = typeof ToolResultBlock.Type

export const ThinkingBlock = Schema.Struct({
  type: Schema.Literal("thinking"),
  thinking: Text,
  signature: Schema.optionalKey(Text)
})

const RedactedThinkingBlock = Schema.Struct({ type: Schema.Literal("redacted_thinking"), data: Text })

/** A call of a hosted MCP server's tool that parley ran, as its answer gave it (./mcpServers.ts). */
export const McpToolUseBlock = Schema.Struct({
  type: Schema.Literal("mcp_tool_use"),
  id: Text,
  name: Name,
  server_name: Name,
  input: Schema.Unknown,
  cache_control: CacheControl
})

export const McpToolResultBlock = Schema.Struct({
  type: Schema.Literal("mcp_tool_result"),
  tool_use_id: Text,
  is_error: Schema.optionalKey(Schema.Boolean),
  content: Schema.optionalKey(Schema.Union([Text, Schema.Array(TextBlock)])),
  cache_control: CacheControl
})

// Any other block type is named in a 400 by the mapping, rather than "does not match".
const OtherBlock = Schema.Struct({ type: Text })

export const ContentBlock = Schema.Union([
  TextBlock,
  ImageBlock,
  ToolUseBlock,
  ToolResultBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  McpToolUseBlock,
  McpToolResultBlock,
  OtherBlock
])
export type ContentBlock = typeof ContentBlock.Type

export const Message = Schema.Struct({
  // `system` inside `messages` is a beta Claude Code uses.
  role: Schema.Literals(["user", "assistant", "system"]),
  content: Schema.Union([Text, Schema.Array(ContentBlock)])
})
export type Message = typeof Message.Type

/** A tool the client runs (`input_schema`), or a hosted one of Anthropic's (a `type` such as `web_search_20250305`). */
export const Tool = Schema.Struct({
  // A hosted tool's is named in `X-Tools-Skipped` when parley skips it.
  name: Name,
  type: Schema.optionalKey(Schema.NullOr(Name)),
  description: Schema.optionalKey(Text),
  input_schema: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  cache_control: CacheControl
})
export type Tool = typeof Tool.Type

/** A hosted MCP server (`mcp-client-2025-04-04`): `parley` or a configured server's id (./mcpServers.ts). */
export const McpServer = Schema.Struct({
  type: Schema.Literal("url"),
  name: Name,
  url: Schema.optionalKey(Text),
  // Refused whatever its value (./mcpServers.ts), which is why it is not read here: it is never echoed.
  authorization_token: Schema.optionalKey(Schema.Unknown),
  tool_configuration: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    enabled: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
    allowed_tools: Schema.optionalKey(Schema.NullOr(Schema.Array(Name)))
  })))
})
export type McpServer = typeof McpServer.Type

const Parallel = { disable_parallel_tool_use: Schema.optionalKey(Schema.Boolean) }

export const ToolChoice = Schema.Union([
  Schema.Struct({ type: Schema.Literals(["auto", "any", "none"]), ...Parallel }),
  Schema.Struct({ type: Schema.Literal("tool"), name: Name, ...Parallel })
])

export const Thinking = Schema.Union([
  Schema.Struct({ type: Schema.Literal("enabled"), budget_tokens: Count }),
  Schema.Struct({ type: Schema.Literals(["adaptive", "disabled"]) })
])
export type Thinking = typeof Thinking.Type

// The AI SDK's reasoning efforts, which hold Anthropic's (`low`…`max`).
const Effort = Schema.Literals(["none", "minimal", "low", "medium", "high", "xhigh", "max"])

const OutputConfig = Schema.Struct({
  effort: Schema.optionalKey(Schema.NullOr(Effort)),
  format: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    type: Schema.Literal("json_schema"),
    schema: Schema.Record(Schema.String, Schema.Unknown)
  })))
})

export const MessagesRequest = Schema.Struct({
  model: ModelId,
  messages: Schema.Array(Message).annotate({ message: "must be an array" }),
  system: Schema.optionalKey(Schema.Union([Text, Schema.Array(TextBlock)])),
  max_tokens: Count,
  stream: Schema.optionalKey(Schema.Boolean),
  stop_sequences: Schema.optionalKey(Schema.Array(Text)),
  temperature: Schema.optionalKey(unit),
  top_p: Schema.optionalKey(unit),
  top_k: Schema.optionalKey(Count),
  tools: Schema.optionalKey(Schema.Array(Tool)),
  tool_choice: Schema.optionalKey(ToolChoice),
  mcp_servers: Schema.optionalKey(Schema.Array(McpServer)),
  thinking: Schema.optionalKey(Thinking),
  metadata: Schema.optionalKey(Schema.Struct({ user_id: Schema.optionalKey(Schema.NullOr(Text)) })),
  output_config: Schema.optionalKey(OutputConfig),
  // Claude Code's: asks the provider to clear old tool results; parley's pruner does its own (prune).
  context_management: Schema.optionalKey(Schema.Unknown),
  service_tier: Schema.optionalKey(Schema.Literals(["auto", "standard_only"])),
  // The spec's server-tool fields ride along (../../../shared/design/round3.md part A).
  ...extraFieldSchemas
}).annotate({ message: "body must be a JSON object", identifier: "MessagesRequest" })
export type MessagesRequest = typeof MessagesRequest.Type

/** `/v1/messages/count_tokens`: the same body, `max_tokens` left out as Anthropic's takes it (or not). */
export const CountTokensRequest = Schema.Struct({ ...MessagesRequest.fields, max_tokens: Schema.optionalKey(Count) })
  .annotate({ message: "body must be a JSON object", identifier: "MessagesCountTokensRequest" })
