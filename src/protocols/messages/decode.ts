import type { JSONSchema7, LanguageModelV4ToolChoice } from "@ai-sdk/provider"
import { Effect, Schema } from "effect"
import type { CallSettings } from "../../agent/AgentRun.ts"
import type { DecodedClientTool, InternalChatRequest } from "../../chat/chatRequest.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import type { Decoded } from "../../http/chatProtocol.ts"
import { approvalRefusal, type BodyFields, commonFields, decodeDoorBody, defined } from "../doorBody.ts"
import type { HostedServerAsk } from "../hostedTools.ts"
import { toConversation } from "./conversation.ts"
import { hostedAsksOf, mcpServerIssues } from "./mcpServers.ts"
import { plainMessagesRequest } from "./plainBody.ts"
import { CountTokensRequest, MessagesRequest, type Thinking } from "./request.ts"

/** What the answer of a Messages request needs of its body. */
export interface MessagesWire {
  /** The model as asked: `message_start` and the answer name it. */
  readonly model: string
  /** `mcp_servers` was asked: parley's tool calls show as `mcp_tool_use` and `mcp_tool_result` blocks. */
  readonly hosted: boolean
  /** Per model message, the body's message it comes from and its content parts' places (./conversation.ts). */
  readonly origins: ReadonlyArray<number>
  readonly places: ReadonlyArray<ReadonlyArray<string>>
}

// Documented fields parley cannot honour: each answers 400 naming it.
const unsupported: ReadonlyMap<string, string> = new Map([
  ["container", "parley's sandboxes are named by sandboxId"],
  // Claude Code's auto mode asks for Anthropic's classifier of the model's tool calls; a 400 is how a deployment
  // declines it, and Claude Code then decides with its local classifier. Taking the field would drop the check.
  ["safeguards", "parley runs no classifier of the model's tool calls; the client's own applies"]
])

const toolChoiceOf = (choice: MessagesRequest["tool_choice"]): LanguageModelV4ToolChoice | undefined => {
  if (choice === undefined) return undefined
  switch (choice.type) {
    case "any":
      return { type: "required" }
    case "tool":
      return { type: "tool", toolName: (choice as { readonly name: string }).name }
    default:
      return { type: choice.type }
  }
}

/**
 * Anthropic's thinking as the AI SDK's one `reasoning` setting: a budget is
 * an effort by its size, `adaptive` the effort `output_config` names (else the
 * provider's default), `disabled` none.
 */
const reasoningOf = (thinking: Thinking | undefined, effort: string | null | undefined) => {
  if (thinking?.type === "disabled") return "none"
  if (thinking?.type === "enabled") {
    const budget = (thinking as { readonly budget_tokens: number }).budget_tokens
    return budget < 4_096 ? "low" : budget < 16_384 ? "medium" : "high"
  }
  return effort ?? undefined
}

const settingsOf = (body: MessagesRequest): CallSettings => {
  const format = body.output_config?.format
  return defined({
    temperature: body.temperature,
    topP: body.top_p,
    topK: body.top_k,
    stopSequences: body.stop_sequences,
    reasoning: reasoningOf(body.thinking, body.output_config?.effort),
    responseFormat: format == null ? undefined : { type: "json", schema: format.schema as JSONSchema7 }
  }) as CallSettings
}

// Hosted tools (a `type` of Anthropic's own, `web_search_20250305`…) are parley's to skip, never to refuse.
const isClientTool = (tool: NonNullable<MessagesRequest["tools"]>[number]) =>
  tool.type == null || tool.type === "custom"

const clientToolsOf = (body: MessagesRequest): ReadonlyArray<DecodedClientTool> =>
  (body.tools ?? []).flatMap((tool, index) =>
    isClientTool(tool)
      ? [{
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: (tool.input_schema as JSONSchema7 | undefined) ?? { type: "object", properties: {} },
        path: `tools[${index}].name`
      }]
      : []
  )

const fields: BodyFields = {
  known: new Set(Object.keys(MessagesRequest.fields)),
  refused: new Set(unsupported.keys()),
  refusedIssues: (body) => [
    ...[...unsupported].flatMap(([field, why]) =>
      typeof body === "object" && body !== null && field in body ? [`"${field}" is not supported: ${why}`] : []
    ),
    ...mcpServerIssues(body)
  ],
  message: new Set(["role", "content"])
}

/** A decoded body and the hosted MCP servers it asks for, which the protocol resolves for the key (./protocol.ts). */
export interface DecodedMessages extends Decoded<MessagesWire> {
  readonly asks: ReadonlyArray<HostedServerAsk>
}

const fromRequest = (request: MessagesRequest): Effect.Effect<DecodedMessages, InvalidRequest> => {
  const conversation = toConversation(request.system, request.messages)
  if (!("messages" in conversation)) return Effect.fail(new InvalidRequest({ issues: conversation }))
  const clientTools = clientToolsOf(request)
  const internal: InternalChatRequest = {
    ...commonFields(request, conversation),
    clientTools,
    skippedTools: (request.tools ?? []).filter((tool) => !isClientTool(tool)).map((tool) => tool.name),
    toolChoice: toolChoiceOf(request.tool_choice),
    settings: settingsOf(request),
    maxOutputTokens: request.max_tokens,
    approvalRefusal: approvalRefusal("/v1/messages")
  }
  return Effect.succeed({
    request: internal,
    asks: hostedAsksOf(request.mcp_servers ?? []),
    wire: {
      model: request.model,
      hosted: request.mcp_servers !== undefined,
      origins: conversation.origins,
      places: conversation.places
    }
  })
}

const decoder = (schema: typeof MessagesRequest | typeof CountTokensRequest) => {
  const decode = Schema.decodeUnknownResult(schema, { errors: "all" })
  return (body: unknown): Effect.Effect<DecodedMessages, InvalidRequest> => {
    // A plain body decodes alike under both schemas (`max_tokens` given).
    const plain = plainMessagesRequest(body)
    return plain === undefined
      ? Effect.flatMap(decodeDoorBody(body, decode, fields), (request) => fromRequest(request as MessagesRequest))
      : fromRequest(plain)
  }
}

/**
 * A Messages body as the internal request (docs/DESIGN.md §14): an unknown
 * field, a documented one parley cannot honour and a broken conversation
 * answer 400 naming the field, before anything runs.
 */
export const decodeMessagesRequest = decoder(MessagesRequest)

/** A `count_tokens` body: the same, `max_tokens` optional. */
export const decodeCountTokensRequest = decoder(CountTokensRequest)
