import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { openAiErrorAt } from "../../api/errorSchemas.ts"
import { OpenAiAuthentication } from "../../api/OpenAiApi.ts"
import { FunctionTool, ResponsesRequest, TextFormat } from "./request.ts"
import { unsupported } from "./unsupported.ts"

// The request as declared: with OpenAI's fields parley takes only at their defaults (./unsupported.ts).
const DeclaredRequest = Schema.Struct({ ...ResponsesRequest.fields, ...unsupported.schemas }).annotate({
  identifier: "ResponsesRequest"
})

const Tokens = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const ItemStatus = Schema.Literals(["in_progress", "completed", "incomplete"])

const OutputItem = Schema.Union([
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("message"),
    role: Schema.Literal("assistant"),
    status: ItemStatus,
    content: Schema.Array(Schema.Struct({
      type: Schema.Literal("output_text"),
      text: Schema.String,
      annotations: Schema.Array(Schema.Unknown)
    }))
  }),
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("reasoning"),
    summary: Schema.Array(Schema.Struct({ type: Schema.Literal("summary_text"), text: Schema.String })),
    encrypted_content: Schema.optionalKey(Schema.String)
  }),
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("function_call"),
    status: ItemStatus,
    call_id: Schema.String,
    name: Schema.String,
    arguments: Schema.String
  }).annotate({
    description: "A call of the client's own tools; parley's tools ran on the server and never appear here."
  }),
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("mcp_list_tools"),
    server_label: Schema.String,
    tools: Schema.Array(Schema.Struct({
      name: Schema.String,
      description: Schema.NullOr(Schema.String),
      input_schema: Schema.Unknown,
      annotations: Schema.Null
    }))
  }).annotate({ description: "The tools an `mcp` tool's label offers this key, first in the output." }),
  Schema.Struct({
    id: Schema.String.annotate({ description: "The tool call's id." }),
    type: Schema.Literal("mcp_call"),
    server_label: Schema.String,
    name: Schema.String,
    arguments: Schema.String,
    output: Schema.NullOr(Schema.String),
    error: Schema.NullOr(Schema.Struct({ type: Schema.Literal("mcp_tool_execution_error"), content: Schema.Unknown })),
    status: Schema.Literals(["completed", "failed", "incomplete"]),
    approval_request_id: Schema.optionalKey(Schema.String)
  }).annotate({ description: "A call of parley's tools (with an `mcp` tool), run on the server." }),
  Schema.Struct({
    id: Schema.String.annotate({ description: "Signed for this key, call, tool and input: send it back unchanged." }),
    type: Schema.Literal("mcp_approval_request"),
    server_label: Schema.String,
    name: Schema.String,
    arguments: Schema.String
  }).annotate({ description: "A call that waits for a person: answer with an `mcp_approval_response` item." })
])

/** The response object, whole when `stream` is left out or false (./collect.ts); the stream's events carry it too. */
export const ResponseObject = Schema.Struct({
  id: Schema.String.annotate({ description: "`resp_` and the request's correlation id." }),
  object: Schema.Literal("response"),
  created_at: Tokens,
  status: Schema.Literals(["completed", "incomplete", "in_progress", "failed"]),
  background: Schema.Literal(false),
  error: Schema.NullOr(Schema.Struct({ code: Schema.String, message: Schema.String })),
  incomplete_details: Schema.NullOr(
    Schema.Struct({ reason: Schema.Literals(["max_output_tokens", "content_filter"]) })
  ),
  model: Schema.String,
  output: Schema.Array(OutputItem),
  previous_response_id: Schema.Null,
  service_tier: Schema.String,
  store: Schema.Literal(false).annotate({ description: "parley keeps no responses yet, whatever `store` asked." }),
  usage: Schema.NullOr(Schema.Struct({
    input_tokens: Tokens,
    input_tokens_details: Schema.Struct({ cached_tokens: Tokens }),
    output_tokens: Tokens,
    output_tokens_details: Schema.Struct({ reasoning_tokens: Tokens }),
    total_tokens: Tokens
  })),
  instructions: Schema.NullOr(Schema.String),
  max_output_tokens: Schema.NullOr(Tokens),
  metadata: Schema.Record(Schema.String, Schema.String),
  parallel_tool_calls: Schema.Boolean,
  reasoning: Schema.Struct({ effort: Schema.NullOr(Schema.String), summary: Schema.NullOr(Schema.String) }),
  temperature: Schema.NullOr(Schema.Number),
  text: Schema.Struct({ format: TextFormat }),
  tool_choice: ResponsesRequest.fields.tool_choice.schema,
  tools: Schema.Array(FunctionTool),
  top_p: Schema.NullOr(Schema.Number),
  truncation: Schema.Literals(["auto", "disabled"]),
  user: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Response" })

const EventStream = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/event-stream" })).annotate({
  description:
    "Named events (`event: <type>`, `data: <JSON>` with a `sequence_number`): `response.created`, `response.in_progress`, `response.output_item.added|done`, `response.content_part.added|done`, `response.output_text.delta|done`, `response.reasoning_summary_part.added|done`, `response.reasoning_summary_text.delta|done`, `response.function_call_arguments.delta|done`, with `mcp` tools `response.mcp_list_tools.in_progress|completed`, `response.mcp_call.in_progress|completed|failed` and `response.mcp_call_arguments.delta|done`, then `response.completed` or `response.incomplete` with the output and the usage. A failure after the first event is `response.failed`."
})

/**
 * OpenAI's Responses in the contract (docs/DESIGN.md §14): the door answers
 * before routing (`app/hotRoutes.ts`); this declares it in /openapi.json
 * and /docs.
 */
export class ResponsesApi extends HttpApiGroup.make("responses")
  .add(
    HttpApiEndpoint.post("createResponse", "/responses", {
      payload: DeclaredRequest,
      success: [EventStream, ResponseObject],
      error: [400, 401, 403, 413, 429, 500, 503].map((status) => openAiErrorAt(status as 400))
    }).annotateMerge(OpenApi.annotations({
      description:
        "OpenAI's Responses: give OpenAI's SDKs and Codex the base URL /v1. Stateless: `store` is answered false, `previous_response_id` and `background` are refused. parley's server tools run inside the request when named in the extra field `allowedTools` or asked as hosted `mcp` tools (`server_label` `parley` or a configured server's id; approvals as `mcp_approval_request` items); the client's own `function` tools come back as `function_call` items; hosted tools parley does not provide are skipped (`X-Tools-Skipped`)."
    }))
  )
  .middleware(OpenAiAuthentication)
  .prefix("/v1")
{}
