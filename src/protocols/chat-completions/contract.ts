import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { openAiErrorAt } from "../../api/errorSchemas.ts"
import { OpenAiAuthentication } from "../../api/OpenAiApi.ts"
import { CompletionRequest, ToolCall } from "./request.ts"
import { unsupportedFieldSchemas } from "./unsupported.ts"

// The request as declared: with OpenAI's fields parley takes only at their defaults (./unsupported.ts).
const DeclaredRequest = Schema.Struct({ ...CompletionRequest.fields, ...unsupportedFieldSchemas }).annotate({
  identifier: "ChatCompletionRequest"
})

const Tokens = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

const Usage = Schema.Struct({
  prompt_tokens: Tokens,
  completion_tokens: Tokens,
  total_tokens: Tokens,
  prompt_tokens_details: Schema.Struct({ cached_tokens: Tokens }),
  completion_tokens_details: Schema.Struct({ reasoning_tokens: Tokens })
})

/** The whole answer, `stream: false` (./collect.ts). */
export const ChatCompletion = Schema.Struct({
  id: Schema.String.annotate({ description: "`chatcmpl-` and the request's correlation id." }),
  object: Schema.Literal("chat.completion"),
  created: Tokens,
  model: Schema.String,
  choices: Schema.Array(Schema.Struct({
    index: Schema.Literal(0),
    message: Schema.Struct({
      role: Schema.Literal("assistant"),
      content: Schema.NullOr(Schema.String),
      refusal: Schema.Null,
      reasoning_content: Schema.optionalKey(
        Schema.String.annotate({ description: "The model's reasoning, where its provider returns it." })
      ),
      tool_calls: Schema.optionalKey(
        Schema.Array(ToolCall).annotate({
          description: "Calls of the client's own tools; parley's tools ran on the server and never appear here."
        })
      )
    }),
    logprobs: Schema.Null,
    finish_reason: Schema.Literals(["stop", "length", "tool_calls", "content_filter"])
  })),
  usage: Usage
}).annotate({ identifier: "ChatCompletion" })

const ChunkStream = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/event-stream" })).annotate({
  description:
    "`data: <chat.completion.chunk JSON>` per chunk; the last chunk carries `finish_reason`; with `stream_options.include_usage` a chunk with `usage` and no choices follows; then `data: [DONE]`. A failure after the first chunk is a `data: {\"error\": …}` event."
})

/**
 * OpenAI's Chat Completions in the contract (docs/DESIGN.md §14): the door
 * answers before routing (`app/hotRoutes.ts`); this declares it in
 * /openapi.json and /docs.
 */
export class ChatCompletionsApi extends HttpApiGroup.make("chat-completions")
  .add(
    HttpApiEndpoint.post("createChatCompletion", "/chat/completions", {
      payload: DeclaredRequest,
      success: [ChunkStream, ChatCompletion],
      error: [400, 401, 403, 413, 429, 500, 503].map((status) => openAiErrorAt(status as 400))
    }).annotateMerge(OpenApi.annotations({
      description:
        "OpenAI's Chat Completions: give OpenAI's SDKs the base URL /v1. parley's server tools run inside the request when named in the extra field `allowedTools`; the client's own `tools` come back as `tool_calls`."
    }))
  )
  .middleware(OpenAiAuthentication)
  .prefix("/v1")
{}
