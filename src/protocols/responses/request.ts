import { Schema } from "effect"
import { ModelId } from "../../domain/ChatRequest.ts"
import { Name, wellFormed } from "../../domain/wellFormed.ts"
import { ReasoningEffort } from "../chat-completions/request.ts"
import { extraFieldSchemas } from "../doorBody.ts"
import { between, Count, Text } from "../fieldSchemas.ts"

/**
 * The body of `POST /v1/responses` as parley takes it (docs/DESIGN.md §14):
 * OpenAI's fields parley honours, those Codex sends that ask for nothing
 * parley must do, and the spec's server-tool fields as extra top-level
 * fields. The item rules (a `function_call` answered by a
 * `function_call_output`) are the mapping's (./input.ts).
 */

/** A `type` other than those a schema of this file takes: only the mapping names it (never a known one half-sent). */
const otherThan = (known: ReadonlyArray<string>) =>
  Text.check(Schema.makeFilter((type: string) => !known.includes(type), { message: `is not a known type` }))
const Status = Schema.optionalKey(Schema.NullOr(Schema.Literals(["in_progress", "completed", "incomplete"])))
const Id = Schema.optionalKey(Schema.NullOr(Text))

export const InputText = Schema.Struct({ type: Schema.Literal("input_text"), text: Text })
export const InputImage = Schema.Struct({
  type: Schema.Literal("input_image"),
  image_url: Schema.optionalKey(Schema.NullOr(Text)),
  file_id: Schema.optionalKey(Schema.NullOr(Text)),
  detail: Schema.optionalKey(Schema.Literals(["auto", "low", "high", "original"]))
})
export const OutputText = Schema.Struct({
  type: Schema.Literal("output_text"),
  text: Text,
  annotations: Schema.optionalKey(Schema.Array(Schema.Unknown)),
  logprobs: Schema.optionalKey(Schema.Array(Schema.Unknown))
})
const Refusal = Schema.Struct({ type: Schema.Literal("refusal"), refusal: Text })
// Any other part type is named in a 400 by the mapping, rather than "does not match".
const OtherPart = Schema.Struct({ type: otherThan(["input_text", "input_image", "output_text", "refusal"]) })

export const ContentPart = Schema.Union([InputText, InputImage, OutputText, Refusal, OtherPart])
export type ContentPart = typeof ContentPart.Type

export type MessageItem = typeof MessageItem.Type
export const MessageItem = Schema.Struct({
  type: Schema.optionalKey(Schema.Literal("message")),
  role: Schema.Literals(["user", "system", "developer", "assistant"]),
  content: Schema.Union([Text, Schema.Array(ContentPart)]),
  id: Id,
  status: Status,
  phase: Schema.optionalKey(Schema.NullOr(Text))
})

export type FunctionCallItem = typeof FunctionCallItem.Type
export const FunctionCallItem = Schema.Struct({
  type: Schema.Literal("function_call"),
  call_id: Text,
  name: Name,
  arguments: Text,
  id: Id,
  status: Status
})

export type FunctionCallOutputItem = typeof FunctionCallOutputItem.Type
export const FunctionCallOutputItem = Schema.Struct({
  type: Schema.Literal("function_call_output"),
  call_id: Text,
  output: Schema.Union([Text, Schema.Array(ContentPart)]),
  id: Id,
  status: Status
})

const SummaryText = Schema.Struct({ type: Schema.Literal("summary_text"), text: Text })
const ReasoningText = Schema.Struct({ type: Schema.Literal("reasoning_text"), text: Text })

export type ReasoningItem = typeof ReasoningItem.Type
export const ReasoningItem = Schema.Struct({
  type: Schema.Literal("reasoning"),
  id: Id,
  summary: Schema.Array(SummaryText),
  content: Schema.optionalKey(Schema.NullOr(Schema.Array(ReasoningText))),
  encrypted_content: Schema.optionalKey(Schema.NullOr(Text)),
  status: Status
})

export const ApprovalResponseItem = Schema.Struct({
  type: Schema.Literal("mcp_approval_response"),
  approval_request_id: Text,
  approve: Schema.Boolean,
  id: Id,
  reason: Schema.optionalKey(Schema.NullOr(Text))
})

export type ApprovalResponseItem = typeof ApprovalResponseItem.Type

/** An `mcp_approval_request` parley sent, sent back before its answer (./hostedMcp.ts). */
export const ApprovalRequestItem = Schema.Struct({
  type: Schema.Literal("mcp_approval_request"),
  id: Text,
  server_label: Name,
  name: Name,
  arguments: Text
})
export type ApprovalRequestItem = typeof ApprovalRequestItem.Type

/** A server tool call parley made and answered, sent back: its `error` is taken as any (a failed call). */
export const McpCallItem = Schema.Struct({
  type: Schema.Literal("mcp_call"),
  id: Text,
  server_label: Name,
  name: Name,
  arguments: Text,
  output: Schema.optionalKey(Schema.NullOr(Text)),
  error: Schema.optionalKey(Schema.Unknown),
  status: Schema.optionalKey(Schema.NullOr(Text)),
  approval_request_id: Schema.optionalKey(Schema.NullOr(Text))
})
export type McpCallItem = typeof McpCallItem.Type

// A listing parley sent: nothing to the model, so only its type is read.
const McpListToolsItem = Schema.Struct({ type: Schema.Literal("mcp_list_tools") })

/**
 * An item of a response the key stored, named by its id: the door puts the
 * item in its place before decoding (./itemReferences.ts), so the mapping
 * never meets one.
 */
export const ItemReferenceItem = Schema.Struct({
  type: Schema.Literal("item_reference"),
  id: Text
}).annotate({
  description: "An input or output item of a response stored with this API key, by its id (`msg_…`, `fc_…`, `rs_…`)"
})

const itemTypes = [
  "message",
  "function_call",
  "function_call_output",
  "reasoning",
  "mcp_approval_response",
  "mcp_approval_request",
  "mcp_call",
  "mcp_list_tools",
  "item_reference"
]
// Other item types (`web_search_call`…) are named in a 400 by the mapping.
const OtherItem = Schema.Struct({ type: otherThan(itemTypes) })

export const InputItem = Schema.Union([
  MessageItem,
  FunctionCallItem,
  FunctionCallOutputItem,
  ReasoningItem,
  ApprovalResponseItem,
  ApprovalRequestItem,
  McpCallItem,
  McpListToolsItem,
  ItemReferenceItem,
  OtherItem
])
export type InputItem = typeof InputItem.Type

export const FunctionTool = Schema.Struct({
  type: Schema.Literal("function"),
  name: Text.check(
    Schema.isPattern(/^[a-zA-Z0-9_-]{1,64}$/, { message: "must be 1 to 64 of a-z, A-Z, 0-9, _ and -" })
  ),
  description: Schema.optionalKey(Schema.NullOr(Text)),
  parameters: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))),
  strict: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
})
export type FunctionTool = typeof FunctionTool.Type

const ToolNames = Schema.Struct({
  tool_names: Schema.optionalKey(Schema.NullOr(Schema.Array(Name))),
  read_only: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
})
export type ToolNames = typeof ToolNames.Type

/**
 * A hosted MCP tool (./hostedMcp.ts): `headers`, `authorization` and
 * `connector_id` are typed loosely so that their refusal, never the schema,
 * names them, without repeating a value.
 */
export const McpTool = Schema.Struct({
  type: Schema.Literal("mcp"),
  server_label: Name,
  server_url: Schema.optionalKey(Schema.NullOr(Text)),
  server_description: Schema.optionalKey(Schema.NullOr(Text)),
  allowed_tools: Schema.optionalKey(Schema.NullOr(Schema.Union([Schema.Array(Name), ToolNames]))),
  require_approval: Schema.optionalKey(
    Schema.NullOr(Schema.Union([
      Schema.Literals(["always", "never"]),
      Schema.Struct({
        always: Schema.optionalKey(Schema.NullOr(ToolNames)),
        never: Schema.optionalKey(Schema.NullOr(ToolNames))
      })
    ]))
  ),
  headers: Schema.optionalKey(Schema.Unknown),
  authorization: Schema.optionalKey(Schema.Unknown),
  connector_id: Schema.optionalKey(Schema.Unknown)
})
export type McpTool = typeof McpTool.Type

/** A hosted tool (`web_search`, Codex's `custom` tools…): its own fields are its type's. */
const HostedTool = Schema.Struct({
  // Named in `X-Tools-Skipped` when parley skips it.
  type: otherThan(["function", "mcp"]).check(wellFormed),
  name: Schema.optionalKey(Schema.NullOr(Name))
})

export const Tool = Schema.Union([FunctionTool, McpTool, HostedTool])
export type Tool = typeof Tool.Type

const ChoiceMode = Schema.Literals(["none", "auto", "required"])
const FunctionChoice = Schema.Struct({ type: Schema.Literal("function"), name: Name })

/**
 * The specification's `AllowedToolsParam`: which of the offered function
 * tools the model may call (`mode`: how, `auto` when left out), while every
 * tool stays in `tools` (a prompt cache keeps them).
 */
export const AllowedTools = Schema.Struct({
  type: Schema.Literal("allowed_tools"),
  tools: Schema.Array(FunctionChoice).check(Schema.isMinLength(1), Schema.isMaxLength(128)),
  mode: Schema.optionalKey(Schema.NullOr(ChoiceMode))
})

export const ToolChoice = Schema.Union([ChoiceMode, FunctionChoice, AllowedTools])

export const TextFormat = Schema.Union([
  Schema.Struct({ type: Schema.Literals(["text", "json_object"]) }),
  Schema.Struct({
    type: Schema.Literal("json_schema"),
    name: Text,
    schema: Schema.Record(Schema.String, Schema.Unknown),
    description: Schema.optionalKey(Schema.NullOr(Text)),
    strict: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
  })
])
export type TextFormat = typeof TextFormat.Type

export const ResponsesRequest = Schema.Struct({
  model: ModelId,
  input: Schema.Union([Text, Schema.Array(InputItem)]).annotate({ message: "must be a string or an array of items" }),
  instructions: Schema.optionalKey(Schema.NullOr(Text)),
  stream: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  tools: Schema.optionalKey(Schema.NullOr(Schema.Array(Tool))),
  tool_choice: Schema.optionalKey(Schema.NullOr(ToolChoice)),
  parallel_tool_calls: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  text: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    format: Schema.optionalKey(Schema.NullOr(TextFormat)),
    // Codex sends it for OpenAI's models; the AI SDK has no setting for it: taken, and nothing asked.
    verbosity: Schema.optionalKey(Schema.NullOr(Schema.Literals(["low", "medium", "high"])))
  }))),
  reasoning: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    effort: Schema.optionalKey(Schema.NullOr(ReasoningEffort)),
    summary: Schema.optionalKey(Schema.NullOr(Schema.Literals(["auto", "concise", "detailed"]))),
    generate_summary: Schema.optionalKey(Schema.NullOr(Schema.Literals(["auto", "concise", "detailed"])))
  }))),
  max_output_tokens: Schema.optionalKey(Schema.NullOr(Count)),
  temperature: Schema.optionalKey(Schema.NullOr(between(0, 2))),
  top_p: Schema.optionalKey(Schema.NullOr(between(0, 1))),
  presence_penalty: Schema.optionalKey(Schema.NullOr(between(-2, 2))),
  frequency_penalty: Schema.optionalKey(Schema.NullOr(between(-2, 2))),
  metadata: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Text))),
  include: Schema.optionalKey(Schema.NullOr(Schema.Array(Text))),
  truncation: Schema.optionalKey(Schema.NullOr(Schema.Literals(["auto", "disabled"]))),
  user: Schema.optionalKey(Text),
  // Default true: the response is kept for PARLEY_RESPONSE_RETENTION (./stored.ts).
  store: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  // The run goes on without the client, its events kept (./background.ts); needs `store`.
  background: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  // A stored response of the key's whose input and output come before `input` (./stored.ts).
  previous_response_id: Schema.optionalKey(Schema.NullOr(Text)),
  // Hints for OpenAI's own caching and abuse checks, and Codex's own: taken, and nothing for parley to do.
  prompt_cache_key: Schema.optionalKey(Schema.NullOr(Text)),
  prompt_cache_retention: Schema.optionalKey(Schema.NullOr(Schema.Literals(["in_memory", "24h"]))),
  safety_identifier: Schema.optionalKey(Schema.NullOr(Text)),
  client_metadata: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))),
  stream_options: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    include_obfuscation: Schema.optionalKey(Schema.Boolean)
  }))),
  // The spec's server-tool fields ride along (../../../shared/design/round3.md part A).
  ...extraFieldSchemas
}).annotate({ message: "body must be a JSON object", identifier: "ResponsesRequest" })
export type ResponsesRequest = typeof ResponsesRequest.Type
