import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { OpenAiAuthentication } from "../../api/OpenAiApi.ts"
import { CountTokensRequest, MessagesRequest, ThinkingBlock, ToolUseBlock } from "./request.ts"

const text = Schema.Struct({ type: Schema.Literal("text"), text: Schema.String })

const Tokens = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** Anthropic's error envelope (../anthropic/error.ts). */
const errorAt = (status: 400 | 401 | 403 | 404 | 413 | 429 | 500 | 503) =>
  Schema.Struct({
    type: Schema.Literal("error"),
    error: Schema.Struct({ type: Schema.String, message: Schema.String })
  }).annotate({ identifier: `AnthropicError${status}` }).pipe(HttpApiSchema.status(status))

const errors = [400, 401, 403, 404, 413, 429, 500, 503].map((status) => errorAt(status as 400))

/** The whole answer, `stream` left out or false (./collect.ts). */
export const AnthropicMessage = Schema.Struct({
  id: Schema.String.annotate({ description: "`msg_` and the request's correlation id." }),
  type: Schema.Literal("message"),
  role: Schema.Literal("assistant"),
  model: Schema.String,
  content: Schema.Array(Schema.Union([
    text,
    ThinkingBlock,
    Schema.Struct({ type: Schema.Literal("redacted_thinking"), data: Schema.String }),
    ToolUseBlock.annotate({
      description: "A call of the client's own tools; parley's tools ran on the server and never appear here."
    }),
    Schema.Struct({
      type: Schema.Literal("mcp_tool_use"),
      id: Schema.String,
      name: Schema.String.annotate({ description: "The tool's name on its server." }),
      server_name: Schema.String.annotate({ description: "`parley` or the configured MCP server's id." }),
      input: Schema.Unknown
    }).annotate({ description: "A call parley ran of a tool of a hosted MCP server (only when `mcp_servers` asked)." }),
    Schema.Struct({
      type: Schema.Literal("mcp_tool_result"),
      tool_use_id: Schema.String,
      is_error: Schema.Boolean,
      content: Schema.Array(text)
    }).annotate({ description: "That call's outcome; a call parley refused is an error naming why." })
  ])),
  stop_reason: Schema.Literals(["end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal"]),
  stop_sequence: Schema.NullOr(Schema.String),
  usage: Schema.Struct({
    input_tokens: Tokens.annotate({ description: "Input tokens not read from the cache." }),
    output_tokens: Tokens,
    cache_read_input_tokens: Tokens,
    cache_creation_input_tokens: Tokens
  })
}).annotate({ identifier: "AnthropicMessage" })

const EventStream = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/event-stream" })).annotate({
  description:
    "Named events (`event: <type>`, `data: <JSON>`): `message_start`, `content_block_start|delta|stop`, `message_delta` (stop reason, usage), `message_stop`; `ping` after 15 s without another event. A failure after the first event is an `error` event."
})

/**
 * Anthropic's Messages in the contract (docs/DESIGN.md §14): the door
 * answers before routing (`app/hotRoutes.ts`), `count_tokens` is routed;
 * this declares both in /openapi.json and /docs.
 */
export class MessagesApi extends HttpApiGroup.make("messages")
  .add(
    HttpApiEndpoint.post("createMessage", "/messages", {
      payload: MessagesRequest,
      success: [EventStream, AnthropicMessage],
      error: errors
    }).annotateMerge(OpenApi.annotations({
      description:
        "Anthropic's Messages: give Anthropic's SDKs and Claude Code the base URL of parley itself (no /v1). The key goes in `x-api-key` or `Authorization: Bearer`. parley's server tools run inside the request when named in the extra field `allowedTools`, or as hosted MCP tools named by `mcp_servers` (`parley` or a configured server's id; their calls show as `mcp_tool_use` and `mcp_tool_result` blocks); the client's own `tools` come back as `tool_use` blocks."
    })),
    HttpApiEndpoint.post("countMessageTokens", "/messages/count_tokens", {
      payload: CountTokensRequest,
      success: Schema.Struct({ input_tokens: Tokens }).annotate({ identifier: "MessageTokensCount" }),
      error: errors
    }).annotateMerge(OpenApi.annotations({
      description:
        "The input tokens of a Messages body, as parley's pruner counts them for the model (an estimate; parley's own tools are not counted)."
    }))
  )
  .middleware(OpenAiAuthentication)
  .prefix("/v1")
{}
