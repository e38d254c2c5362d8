import { Schema } from "effect"
import { ModelId } from "../../domain/ChatRequest.ts"
import { Name } from "../../domain/wellFormed.ts"
import { extraFieldSchemas } from "../doorBody.ts"
import { between, Count, Text } from "../fieldSchemas.ts"

/**
 * The body of `POST /v1/chat/completions` as parley takes it (docs/DESIGN.md
 * §14): OpenAI's fields parley honours, and the spec's server-tool fields as
 * extra top-level fields. Role rules (a tool message answers a call, an
 * assistant's calls are answered) are the mapping's (./messages.ts).
 */

export const ContentPart = Schema.Struct({
  type: Schema.Literals(["text", "image_url", "refusal", "input_audio", "file"]),
  text: Schema.optionalKey(Text),
  refusal: Schema.optionalKey(Text),
  image_url: Schema.optionalKey(Schema.Struct({
    url: Text,
    detail: Schema.optionalKey(Schema.Literals(["auto", "low", "high"]))
  }))
})
export type ContentPart = typeof ContentPart.Type

export const ToolCall = Schema.Struct({
  id: Text,
  type: Schema.Literal("function"),
  function: Schema.Struct({ name: Name, arguments: Text })
})
export type ToolCall = typeof ToolCall.Type

export const CompletionMessage = Schema.Struct({
  role: Schema.Literals(["system", "developer", "user", "assistant", "tool", "function"]),
  content: Schema.optionalKey(Schema.NullOr(Schema.Union([Text, Schema.Array(ContentPart)]))),
  name: Schema.optionalKey(Text),
  tool_calls: Schema.optionalKey(Schema.Array(ToolCall)),
  tool_call_id: Schema.optionalKey(Text),
  refusal: Schema.optionalKey(Schema.NullOr(Text)),
  // Not OpenAI's: DeepSeek's and vLLM's name for the reasoning a client sends back.
  reasoning_content: Schema.optionalKey(Schema.NullOr(Text))
})
export type CompletionMessage = typeof CompletionMessage.Type

export const FunctionTool = Schema.Struct({
  type: Schema.Literal("function"),
  function: Schema.Struct({
    name: Text.check(
      Schema.isPattern(/^[a-zA-Z0-9_-]{1,64}$/, { message: "must be 1 to 64 of a-z, A-Z, 0-9, _ and -" })
    ),
    description: Schema.optionalKey(Text),
    parameters: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
    strict: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
  })
})

export const ToolChoice = Schema.Union([
  Schema.Literals(["none", "auto", "required"]),
  Schema.Struct({ type: Schema.Literal("function"), function: Schema.Struct({ name: Name }) })
])

export const ResponseFormat = Schema.Union([
  Schema.Struct({ type: Schema.Literals(["text", "json_object"]) }),
  Schema.Struct({
    type: Schema.Literal("json_schema"),
    json_schema: Schema.Struct({
      name: Text,
      description: Schema.optionalKey(Text),
      schema: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
      strict: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
    })
  })
])

export const ReasoningEffort = Schema.Literals(["none", "minimal", "low", "medium", "high", "xhigh"])

export const CompletionRequest = Schema.Struct({
  model: ModelId,
  messages: Schema.Array(CompletionMessage).annotate({ message: "must be an array" }),
  stream: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  stream_options: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    include_usage: Schema.optionalKey(Schema.Boolean),
    include_obfuscation: Schema.optionalKey(Schema.Boolean)
  }))),
  tools: Schema.optionalKey(Schema.Array(FunctionTool)),
  tool_choice: Schema.optionalKey(ToolChoice),
  parallel_tool_calls: Schema.optionalKey(Schema.Boolean),
  response_format: Schema.optionalKey(ResponseFormat),
  temperature: Schema.optionalKey(Schema.NullOr(between(0, 2))),
  top_p: Schema.optionalKey(Schema.NullOr(between(0, 1))),
  presence_penalty: Schema.optionalKey(Schema.NullOr(between(-2, 2))),
  frequency_penalty: Schema.optionalKey(Schema.NullOr(between(-2, 2))),
  max_tokens: Schema.optionalKey(Schema.NullOr(Count)),
  max_completion_tokens: Schema.optionalKey(Schema.NullOr(Count)),
  stop: Schema.optionalKey(Schema.NullOr(Schema.Union([Text, Schema.Array(Text)]))),
  seed: Schema.optionalKey(Schema.NullOr(Schema.Int)),
  reasoning_effort: Schema.optionalKey(Schema.NullOr(ReasoningEffort)),
  user: Schema.optionalKey(Text),
  metadata: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Text))),
  // Hints for OpenAI's own caching and abuse checks: taken, and nothing for parley to do.
  prompt_cache_key: Schema.optionalKey(Text),
  safety_identifier: Schema.optionalKey(Text),
  // The spec's server-tool fields ride along (../../../shared/design/round3.md part A).
  ...extraFieldSchemas
}).annotate({ message: "body must be a JSON object", identifier: "ChatCompletionRequest" })
export type CompletionRequest = typeof CompletionRequest.Type
