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

// The text format as the response repeats it (./decode.ts `formatEcho`): a JSON schema's without its schema.
const TextFormatEcho = Schema.Union([
  TextFormat.members[0],
  Schema.Struct({
    type: Schema.Literal("json_schema"),
    name: Schema.String,
    description: Schema.NullOr(Schema.String),
    schema: Schema.Null.annotate({ description: "Null, as the Open Responses specification has it." }),
    strict: Schema.Boolean
  })
])

/**
 * The response object, whole when `stream` is left out or false
 * (./collect.ts); the stream's events carry it too. Every field the Open
 * Responses specification's `ResponseResource` requires is there.
 */
export const ResponseObject = Schema.Struct({
  id: Schema.String.annotate({
    description: "A stored response's: `resp_` and 128 random bits; else `resp_` and the request's correlation id."
  }),
  object: Schema.Literal("response"),
  created_at: Tokens,
  completed_at: Schema.NullOr(Tokens).annotate({ description: "When it completed; null unless `completed`." }),
  status: Schema.Literals(["completed", "incomplete", "in_progress", "failed", "queued", "cancelled"]),
  background: Schema.Boolean.annotate({
    description: "Asked with `background`: the run goes on without the client, and its events are kept."
  }),
  error: Schema.NullOr(Schema.Struct({ code: Schema.String, message: Schema.String })),
  incomplete_details: Schema.NullOr(
    Schema.Struct({ reason: Schema.Literals(["max_output_tokens", "content_filter"]) })
  ),
  model: Schema.String,
  output: Schema.Array(OutputItem),
  previous_response_id: Schema.NullOr(Schema.String),
  service_tier: Schema.String,
  store: Schema.Boolean.annotate({
    description: "Whether the response is stored (`store`, default true): kept for PARLEY_RESPONSE_RETENTION."
  }),
  usage: Schema.NullOr(Schema.Struct({
    input_tokens: Tokens,
    input_tokens_details: Schema.Struct({ cached_tokens: Tokens }),
    output_tokens: Tokens,
    output_tokens_details: Schema.Struct({ reasoning_tokens: Tokens }),
    total_tokens: Tokens
  })),
  instructions: Schema.NullOr(Schema.String),
  max_output_tokens: Schema.NullOr(Tokens),
  max_tool_calls: Schema.Null,
  metadata: Schema.Record(Schema.String, Schema.String),
  parallel_tool_calls: Schema.Boolean,
  reasoning: Schema.Struct({ effort: Schema.NullOr(Schema.String), summary: Schema.NullOr(Schema.String) }),
  temperature: Schema.Number.annotate({ description: "As asked; 1 when left out." }),
  text: Schema.Struct({ format: TextFormatEcho }),
  tool_choice: ResponsesRequest.fields.tool_choice.schema,
  tools: Schema.Array(FunctionTool),
  top_p: Schema.Number.annotate({ description: "As asked; 1 when left out." }),
  presence_penalty: Schema.Number.annotate({ description: "As asked; 0 when left out." }),
  frequency_penalty: Schema.Number.annotate({ description: "As asked; 0 when left out." }),
  top_logprobs: Schema.Literal(0),
  truncation: Schema.Literals(["auto", "disabled"]),
  safety_identifier: Schema.NullOr(Schema.String),
  prompt_cache_key: Schema.NullOr(Schema.String),
  user: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Response" })

const EventStream = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/event-stream" })).annotate({
  description:
    "Named events (`event: <type>`, `data: <JSON>` with a `sequence_number`): `response.created`, `response.in_progress`, `response.output_item.added|done`, `response.content_part.added|done`, `response.output_text.delta|done`, `response.reasoning_summary_part.added|done`, `response.reasoning_summary_text.delta|done`, `response.function_call_arguments.delta|done`, with `mcp` tools `response.mcp_list_tools.in_progress|completed`, `response.mcp_call.in_progress|completed|failed` and `response.mcp_call_arguments.delta|done`, then `response.completed` or `response.incomplete` with the output and the usage (`response.incomplete` with `status: \"cancelled\"` for a cancelled background run). A failure after the first event is `response.failed`. The last data is `[DONE]`, as the Open Responses specification asks."
})

const ResponseId = Schema.String.annotate({ description: "A response this key stored." })

const InputItemList = Schema.Struct({
  object: Schema.Literal("list"),
  data: Schema.Array(
    Schema.Record(Schema.String, Schema.Unknown).annotate({
      description: "An input item as it was sent, with its `id` (one of parley's when it had none)."
    })
  ),
  first_id: Schema.NullOr(Schema.String),
  last_id: Schema.NullOr(Schema.String),
  has_more: Schema.Boolean
}).annotate({ identifier: "ResponseInputItemList" })

const RetrieveQuery = {
  stream: Schema.optionalKey(
    Schema.Literals(["true", "false"]).annotate({
      description: "`true`: a background response's events as server-sent events."
    })
  ),
  starting_after: Schema.optionalKey(Schema.NumberFromString.annotate({
    description: "With `stream=true`: the events after this `sequence_number`."
  }))
}

const InputItemsQuery = {
  after: Schema.optionalKey(Schema.String.annotate({ description: "An item's id: the items after it." })),
  before: Schema.optionalKey(Schema.String.annotate({ description: "An item's id: the items before it." })),
  limit: Schema.optionalKey(Schema.NumberFromString.annotate({ description: "1 to 100, default 20." })),
  order: Schema.optionalKey(
    Schema.Literals(["asc", "desc"]).annotate({ description: "Default `desc`: the last item first." })
  ),
  include: Schema.optionalKey(Schema.String.annotate({ description: "Taken and ignored." }))
}

const DeletedResponse = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("response"),
  deleted: Schema.Literal(true)
}).annotate({ identifier: "DeletedResponse" })

// What the stored responses' routes share: the id in the path, and OpenAI's error bodies.
const storedRoute = {
  params: { id: ResponseId },
  error: [400, 401, 404, 500, 503].map((status) => openAiErrorAt(status as 400))
}

/**
 * OpenAI's Responses in the contract (docs/DESIGN.md §14): the door answers
 * before routing (`app/hotRoutes.ts`), the stored responses' routes are
 * plain router routes (./storedRoutes.ts); this declares them in
 * /openapi.json and /docs.
 */
export class ResponsesApi extends HttpApiGroup.make("responses")
  .add(
    HttpApiEndpoint.post("createResponse", "/responses", {
      payload: DeclaredRequest,
      success: [EventStream, ResponseObject],
      error: [400, 401, 403, 413, 429, 500, 503].map((status) => openAiErrorAt(status as 400))
    }).annotateMerge(OpenApi.annotations({
      description:
        "OpenAI's Responses: give OpenAI's SDKs and Codex the base URL /v1. A response is stored unless `store` is false (for PARLEY_RESPONSE_RETENTION, its key alone reads it), and `previous_response_id` continues a stored one; `background` (stored, never with `store: false`) answers at once `queued` (or streams, `stream: true`) while the run goes on without the client. parley's server tools run inside the request when named in the extra field `allowedTools` or asked as hosted `mcp` tools (`server_label` `parley` or a configured server's id; approvals as `mcp_approval_request` items); the client's own `function` tools come back as `function_call` items; hosted tools parley does not provide are skipped (`X-Tools-Skipped`)."
    }))
  )
  .add(
    HttpApiEndpoint.get("retrieveResponse", "/responses/:id", {
      ...storedRoute,
      query: RetrieveQuery,
      success: [ResponseObject, EventStream]
    })
      .annotateMerge(OpenApi.annotations({
        description:
          "A stored response, as `POST /v1/responses` answered it (`responses.retrieve()`). Only the key that stored it reads it: another key's, an expired, deleted or unknown id is 404 alike. A background response shows its current status (a run whose instance stopped without finishing it: `failed`). With `stream=true` (a background response's, until PARLEY_STREAM_RETENTION after it ended; another's is 400) its events after `starting_after` (a `sequence_number`; all without it) as server-sent events, followed live until the run ends (`responses.retrieve(id, { stream: true, starting_after })`)."
      })),
    HttpApiEndpoint.get("listInputItems", "/responses/:id/input_items", {
      ...storedRoute,
      query: InputItemsQuery,
      success: InputItemList
    }).annotateMerge(OpenApi.annotations({
      description:
        "A stored response's input items, the conversation it continued first, in OpenAI's list form (`responses.inputItems.list()`), paged by item id."
    })),
    HttpApiEndpoint.delete("deleteResponse", "/responses/:id", { ...storedRoute, success: DeletedResponse })
      .annotateMerge(OpenApi.annotations({
        description: "Deletes a stored response (`responses.delete()`); 404 as `GET` answers it."
      })),
    HttpApiEndpoint.post("cancelResponse", "/responses/:id/cancel", { ...storedRoute, success: ResponseObject })
      .annotateMerge(OpenApi.annotations({
        description:
          "Cancels a background response (`responses.cancel()`) on whichever instance runs it, and answers it `cancelled` once its run stopped (within a second; after 5 s as it stands). One that already ended is answered as it ended; a response that is not a background one is 400; 404 as `GET` answers it."
      }))
  )
  .middleware(OpenAiAuthentication)
  .prefix("/v1")
{}
