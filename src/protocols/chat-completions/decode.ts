import type { JSONSchema7, LanguageModelV4ToolChoice } from "@ai-sdk/provider"
import { Effect, Schema } from "effect"
import type { CallSettings } from "../../agent/AgentRun.ts"
import type { DecodedClientTool, InternalChatRequest } from "../../chat/chatRequest.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import type { Decoded } from "../../http/chatProtocol.ts"
import { approvalRefusal, type BodyFields, commonFields, decodeDoorBody, defined } from "../doorBody.ts"
import { toConversation } from "./messages.ts"
import { plainCompletionRequest } from "./plainBody.ts"
import { CompletionRequest } from "./request.ts"
import { unsupportedFieldIssues, unsupportedFields } from "./unsupported.ts"

/** What the answer of a Chat Completions request needs of its body. */
export interface CompletionWire {
  /** The model as asked: every chunk and the answer name it. */
  readonly model: string
  /** `stream_options.include_usage`: a last chunk with the usage and no choices. */
  readonly includeUsage: boolean
  /** Per model message of the conversation, the body's message it comes from (./messages.ts): errors name it. */
  readonly origins: ReadonlyArray<number>
}

const decode = Schema.decodeUnknownResult(CompletionRequest, { errors: "all" })

const refusal = approvalRefusal("/v1/chat/completions")

const toolChoiceOf = (choice: CompletionRequest["tool_choice"]): LanguageModelV4ToolChoice | undefined =>
  choice === undefined
    ? undefined
    : typeof choice === "string"
    ? { type: choice }
    : { type: "tool", toolName: choice.function.name }

const responseFormatOf = (format: CompletionRequest["response_format"]): CallSettings["responseFormat"] => {
  if (format === undefined || format.type === "text") return undefined
  if (!("json_schema" in format)) return { type: "json" }
  const { description, name, schema } = format.json_schema
  return {
    type: "json",
    name,
    ...(description === undefined ? {} : { description }),
    ...(schema === undefined ? {} : { schema: schema as JSONSchema7 })
  }
}

const settingsOf = (body: CompletionRequest): CallSettings =>
  defined({
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    presencePenalty: body.presence_penalty ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    stopSequences: body.stop == null ? undefined : typeof body.stop === "string" ? [body.stop] : [...body.stop],
    seed: body.seed ?? undefined,
    responseFormat: responseFormatOf(body.response_format),
    reasoning: body.reasoning_effort ?? undefined
  }) as CallSettings

const clientToolsOf = (body: CompletionRequest): ReadonlyArray<DecodedClientTool> =>
  (body.tools ?? []).map(({ function: f }, index) => ({
    name: f.name,
    ...(f.description === undefined ? {} : { description: f.description }),
    inputSchema: (f.parameters as JSONSchema7 | undefined) ?? { type: "object", properties: {} },
    ...(f.strict == null ? {} : { strict: f.strict }),
    path: `tools[${index}].function.name`
  }))

const invalid = (issues: ReadonlyArray<string>) => Effect.fail(new InvalidRequest({ issues }))

/**
 * A Chat Completions body as the internal request (docs/DESIGN.md §14): an
 * unknown field, a documented one parley cannot honour and a broken
 * conversation answer 400 naming the field, before anything runs.
 */
export const decodeCompletionRequest = (
  body: unknown
): Effect.Effect<Decoded<CompletionWire>, InvalidRequest> => {
  const plain = plainCompletionRequest(body)
  return plain === undefined
    ? Effect.flatMap(decodeDoorBody(body, decode, fields), (request) => fromRequest(request))
    : fromRequest(plain)
}

const fromRequest = (request: CompletionRequest): Effect.Effect<Decoded<CompletionWire>, InvalidRequest> => {
  const conversation = toConversation(request.messages)
  if (!("messages" in conversation)) return invalid(conversation)
  const clientTools = clientToolsOf(request)
  const maxOutputTokens = request.max_completion_tokens ?? request.max_tokens ?? undefined
  const internal: InternalChatRequest = {
    ...commonFields(request, conversation),
    clientTools,
    toolChoice: toolChoiceOf(request.tool_choice),
    settings: settingsOf(request),
    maxOutputTokens,
    approvalRefusal: refusal
  }
  return Effect.succeed({
    request: internal,
    wire: {
      model: request.model,
      includeUsage: request.stream_options?.include_usage === true,
      origins: conversation.origins
    }
  })
}

const fields: BodyFields = {
  known: new Set(Object.keys(CompletionRequest.fields)),
  refused: unsupportedFields,
  refusedIssues: unsupportedFieldIssues,
  message: new Set(["role", "content", "name", "tool_calls", "tool_call_id", "refusal", "reasoning_content"])
}
