import type { JSONSchema7, LanguageModelV4ToolChoice } from "@ai-sdk/provider"
import { Effect, Schema } from "effect"
import type { CallSettings } from "../../agent/AgentRun.ts"
import type { DecodedClientTool, InternalChatRequest } from "../../chat/chatRequest.ts"
import type { ApiKey } from "../../domain/ApiKey.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import type { Decoded } from "../../http/chatProtocol.ts"
import { approvalRefusal, type BodyFields, commonFields, decodeDoorBody, defined } from "../doorBody.ts"
import type { HostedServerAsk } from "../hostedTools.ts"
import { hostedAsksOf, isMcpTool, mcpToolIssues } from "./hostedMcp.ts"
import { toConversation } from "./input.ts"
import { plainResponsesRequest } from "./plainBody.ts"
import { type FunctionTool, ResponsesRequest, type TextFormat, type Tool } from "./request.ts"
import { type StoredWire, storedWire } from "./stored.ts"
import { unsupported } from "./unsupported.ts"

/** What the answer of a Responses request needs of its body. */
export interface ResponsesWire {
  /** The model as asked: the response object names it. */
  readonly model: string
  /** The labels of the `mcp` tools asked: parley's tool calls show as `mcp_call` items, each label's tools listed. */
  readonly hosted: ReadonlyArray<string>
  /** Where each model message of the internal conversation, and each of its content parts, is in `input` (./input.ts). */
  readonly origins: ReadonlyArray<number>
  readonly places: ReadonlyArray<ReadonlyArray<string>>
  /** `include` asked for `reasoning.encrypted_content` (./encryptedReasoning.ts). */
  readonly includeEncrypted: boolean
  /** The request's settings the response object repeats, as OpenAI's does. */
  readonly echo: Readonly<Record<string, unknown>>
  /** The response is to be stored (`store`, default true): its id and input (./stored.ts). */
  readonly stored: StoredWire | undefined
  /**
   * A background response (`background`, ./background.ts): the run goes on without its client, its
   * events kept under the stored id. `detached`: it was not asked streamed, so it answers at once.
   */
  readonly background: { readonly detached: boolean } | undefined
}

const decode = Schema.decodeUnknownResult(ResponsesRequest, { errors: "all" })

const isFunction = (tool: Tool): tool is FunctionTool => tool.type === "function"

const toolChoiceOf = (choice: ResponsesRequest["tool_choice"]): LanguageModelV4ToolChoice | undefined =>
  choice == null
    ? undefined
    : typeof choice === "string"
    ? { type: choice }
    : choice.type === "allowed_tools"
    ? { type: choice.mode ?? "auto" }
    : { type: "tool", toolName: choice.name }

type Allowed = Extract<NonNullable<ResponsesRequest["tool_choice"]>, { readonly type: "allowed_tools" }>

/** `allowed_tools`, as the response repeats it: the specification's `AllowedToolChoice` has its `mode`. */
const choiceEcho = (choice: ResponsesRequest["tool_choice"]) =>
  choice == null
    ? "auto"
    : typeof choice === "object" && choice.type === "allowed_tools"
    ? { type: "allowed_tools", tools: choice.tools, mode: choice.mode ?? "auto" }
    : choice

/**
 * What is wrong with an `allowed_tools` choice: a name no function tool of the
 * request has, or parley's own tools beside it (it names function tools only,
 * so they would not be permitted).
 */
const allowedIssues = (allowed: Allowed, request: ResponsesRequest, tools: ReadonlyArray<Tool>): Array<string> => {
  const offered = new Set(tools.filter(isFunction).map((tool) => tool.name))
  const issues = allowed.tools.flatMap((tool, index) =>
    offered.has(tool.name)
      ? []
      : [`"tool_choice.tools[${index}].name": no function tool '${tool.name}' in tools: name one the request offers`]
  )
  if (tools.some(isMcpTool) || (request.allowedTools?.length ?? 0) > 0) {
    issues.push(
      `"tool_choice": allowed_tools permits function tools only, so the request's mcp tools and allowedTools ` +
        `could not run: leave them out, or choose "auto"`
    )
  }
  return issues
}

const responseFormatOf = (body: ResponsesRequest): CallSettings["responseFormat"] => {
  const format = body.text?.format
  if (format == null || format.type === "text") return undefined
  if (format.type === "json_object") return { type: "json" }
  const { description, name, schema } = format as { name: string; schema: object; description?: string | null }
  return { type: "json", name, schema: schema as JSONSchema7, ...(description == null ? {} : { description }) }
}

const settingsOf = (body: ResponsesRequest): CallSettings =>
  defined({
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    presencePenalty: body.presence_penalty ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    responseFormat: responseFormatOf(body),
    reasoning: body.reasoning?.effort ?? undefined
  }) as CallSettings

const clientToolsOf = (tools: ReadonlyArray<Tool>): ReadonlyArray<DecodedClientTool> =>
  tools.flatMap((tool, index) =>
    isFunction(tool)
      ? [{
        name: tool.name,
        ...(tool.description == null ? {} : { description: tool.description }),
        inputSchema: (tool.parameters as JSONSchema7 | null | undefined) ?? { type: "object", properties: {} },
        ...(tool.strict == null ? {} : { strict: tool.strict }),
        path: `tools[${index}].name`
      }]
      : []
  )

/**
 * The text format as the response repeats it: a JSON schema's by the
 * specification's `JsonSchemaResponseFormat`, whose `schema` is null
 * (docs/DESIGN.md §14).
 */
export const formatEcho = (format: TextFormat | null | undefined) =>
  format == null
    ? { type: "text" }
    : format.type !== "json_schema"
    ? format
    : {
      type: "json_schema",
      name: format.name,
      description: format.description ?? null,
      schema: null,
      strict: format.strict ?? false
    }

/**
 * What the response object repeats of the request: every setting the Open
 * Responses specification's `ResponseResource` requires (docs/DESIGN.md
 * §14), a number where it asks for one, a setting left out as OpenAI's API
 * answers it (`temperature` and `top_p` 1, the penalties 0).
 */
const echoOf = (body: ResponsesRequest, tools: ReadonlyArray<FunctionTool>, stored: boolean) => ({
  store: stored,
  background: body.background === true,
  previous_response_id: body.previous_response_id ?? null,
  instructions: body.instructions ?? null,
  max_output_tokens: body.max_output_tokens ?? null,
  max_tool_calls: null,
  metadata: body.metadata ?? {},
  parallel_tool_calls: body.parallel_tool_calls ?? true,
  reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
  temperature: body.temperature ?? 1,
  text: { format: formatEcho(body.text?.format) },
  tool_choice: choiceEcho(body.tool_choice),
  tools: tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description ?? null,
    parameters: tool.parameters ?? null,
    strict: tool.strict ?? null
  })),
  top_p: body.top_p ?? 1,
  presence_penalty: body.presence_penalty ?? 0,
  frequency_penalty: body.frequency_penalty ?? 0,
  top_logprobs: 0,
  truncation: body.truncation ?? "disabled",
  safety_identifier: body.safety_identifier ?? null,
  prompt_cache_key: body.prompt_cache_key ?? null,
  ...(body.user === undefined ? {} : { user: body.user })
})

// The fields `echoOf` reads: a request that leaves all of them out (the common case) shares one frozen echo, whose
// JSON the stream makes once (./response.ts). Left out, not null: `echoOf` words some nulls its own way.
const ECHOED = [
  "background",
  "previous_response_id",
  "instructions",
  "max_output_tokens",
  "metadata",
  "parallel_tool_calls",
  "reasoning",
  "temperature",
  "text",
  "tool_choice",
  "top_p",
  "presence_penalty",
  "frequency_penalty",
  "truncation",
  "safety_identifier",
  "prompt_cache_key",
  "user"
] as const
const PLAIN_ECHO = {
  stored: Object.freeze(echoOf({} as ResponsesRequest, [], true)),
  unstored: Object.freeze(echoOf({} as ResponsesRequest, [], false))
}
const echoFor = (body: ResponsesRequest, tools: ReadonlyArray<FunctionTool>, stored: boolean) =>
  tools.length === 0 && ECHOED.every((field) => body[field] === undefined)
    ? (stored ? PLAIN_ECHO.stored : PLAIN_ECHO.unstored)
    : echoOf(body, tools, stored)

const fields: BodyFields = {
  known: new Set(Object.keys(ResponsesRequest.fields)),
  refused: unsupported.fields,
  // Items are checked by their schemas and the mapping, which names an unknown type.
  refusedIssues: (body) => [...unsupported.issues(body), ...mcpToolIssues(body)]
}

/** A decoded body and the hosted MCP servers it asks for, which the protocol resolves for the key (./protocol.ts). */
export interface DecodedResponses extends Decoded<ResponsesWire> {
  readonly asks: ReadonlyArray<HostedServerAsk>
  /** The body's tools: `require_approval` is read once the asks are resolved. */
  readonly tools: ReadonlyArray<Tool>
}

const fromRequest = (
  request: ResponsesRequest,
  body: unknown,
  key: ApiKey | undefined
): Effect.Effect<DecodedResponses, InvalidRequest> => {
  const tools = request.tools ?? []
  const asks = hostedAsksOf(tools)
  const conversation = toConversation(request.instructions, request.input)
  if (!("messages" in conversation)) return Effect.fail(new InvalidRequest({ issues: conversation }))
  const choice = request.tool_choice
  const allowed = typeof choice === "object" && choice?.type === "allowed_tools" ? choice : undefined
  const refused = allowed === undefined ? [] : allowedIssues(allowed, request, tools)
  if (refused.length > 0) return Effect.fail(new InvalidRequest({ issues: refused }))
  // Only the allowed ones are offered to the model.
  const permitted = allowed === undefined ? undefined : new Set(allowed.tools.map((tool) => tool.name))
  const clientTools = clientToolsOf(tools).filter((tool) => permitted?.has(tool.name) ?? true)
  const stored = key === undefined || request.store === false
    ? undefined
    : storedWire(key, (body as { readonly input: unknown }).input)
  // OpenAI's rule: a background response is retrieved, so it is stored.
  if (request.background === true && request.store === false) {
    return Effect.fail(
      new InvalidRequest({ issues: [`"background": a background response is stored: drop store: false`] })
    )
  }
  const background = request.background === true && stored !== undefined
    ? { detached: request.stream !== true }
    : undefined
  const internal: InternalChatRequest = {
    ...commonFields(request, conversation),
    approvals: conversation.approvals,
    conversationProblem: conversation.problem,
    // A background run is always run as a stream: its events are what is kept.
    ...(background === undefined ? {} : { stream: true }),
    clientTools,
    // Hosted tools parley does not provide (Codex always sends `web_search`) are skipped, never refused.
    skippedTools: tools.filter((tool) => !isFunction(tool) && !isMcpTool(tool)).map((tool) =>
      (tool as { readonly name?: string | null }).name ?? tool.type
    ),
    toolChoice: toolChoiceOf(request.tool_choice),
    settings: settingsOf(request),
    maxOutputTokens: request.max_output_tokens ?? undefined,
    // With hosted MCP tools a call that needs approval is an `mcp_approval_request` item; without, the client could not see one.
    approvalRefusal: asks.length === 0 ? approvalRefusal("/v1/responses") : undefined
  }
  return Effect.succeed({
    request: internal,
    asks,
    tools,
    wire: {
      model: request.model,
      hosted: asks.map((ask) => ask.label),
      origins: conversation.origins,
      places: conversation.places,
      includeEncrypted: request.include?.includes("reasoning.encrypted_content") === true,
      echo: echoFor(request, tools.filter(isFunction), stored !== undefined),
      stored,
      background
    }
  })
}

/**
 * A Responses body as the internal request (docs/DESIGN.md §14): an unknown
 * field, a documented one parley cannot honour and a broken input answer
 * 400 naming the field, before anything runs. With the key that asks, the
 * response is to be stored unless `store` is false.
 */
export const decodeResponsesRequest = (
  body: unknown,
  key?: ApiKey
): Effect.Effect<DecodedResponses, InvalidRequest> => {
  const plain = plainResponsesRequest(body)
  return plain === undefined
    ? Effect.flatMap(decodeDoorBody(body, decode, fields), (request) => fromRequest(request, body, key))
    : fromRequest(plain, body, key)
}
