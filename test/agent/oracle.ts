import type { JSONSchema7, LanguageModelV4 } from "@ai-sdk/provider"
import {
  convertToModelMessages,
  dynamicTool,
  jsonSchema,
  type LanguageModelUsage,
  stepCountIs,
  streamText,
  toUIMessageStream,
  type UIMessage,
  type UIMessageChunk
} from "ai"
import { Effect, JsonSchema, Result, Schema } from "effect"
import type { Tool } from "../../src/tools/Tool.ts"
import { makeKey } from "../support/keys.ts"

// The same tool as an AI SDK dynamic tool: same JSON Schema, same decoder, same execute.
const toDynamicTool = (tool: Tool) => {
  const decode = Schema.decodeUnknownResult(Schema.toCodecJson(tool.inputSchema))
  const document = JsonSchema.toDocumentDraft07(Schema.toJsonSchemaDocument(tool.inputSchema))
  return dynamicTool({
    description: tool.description,
    inputSchema: jsonSchema(document.schema as JSONSchema7, {
      validate: (value) => {
        const decoded = decode(value)
        return Result.isSuccess(decoded)
          ? { success: true, value: decoded.success }
          : { success: false, error: decoded.failure }
      }
    }),
    execute: (input, { abortSignal, toolCallId }) =>
      Effect.runPromise(tool.execute(input, {
        toolCallId,
        context: {},
        sandboxId: null,
        key: makeKey(),
        signal: abortSignal ?? new AbortController().signal,
        reportUsage: () => undefined
      }))
  })
}

/** What `streamText(...)` + `toUIMessageStream` make of a conversation: its chunks, and the error if the stream threw. */
export interface Reference {
  readonly chunks: Array<UIMessageChunk>
  readonly thrown?: unknown
  /** `streamText`'s `totalUsage`, when the stream ended without throwing. */
  readonly usage?: LanguageModelUsage
}

/** What `streamText(...)` + `toUIMessageStream` make of the same model answers, tools and conversation. */
export const referenceRun = async (
  model: LanguageModelV4,
  tools: ReadonlyArray<Tool>,
  options: {
    readonly system: string
    readonly messages: Array<UIMessage>
    readonly maxSteps: number
    /** Tools that wait for a person's approval (`toolApproval: "user-approval"`). */
    readonly approvalRequired?: ReadonlyArray<string>
  }
): Promise<Reference> => {
  const aiTools = tools.length === 0
    ? undefined
    : Object.fromEntries(tools.map((tool) => [tool.name, toDynamicTool(tool)]))
  const result = streamText({
    model,
    system: options.system,
    messages: await convertToModelMessages(options.messages),
    ...(aiTools === undefined ? {} : { tools: aiTools }),
    ...(options.approvalRequired === undefined ? {} : {
      toolApproval: Object.fromEntries(options.approvalRequired.map((name) => [name, "user-approval" as const]))
    }),
    stopWhen: stepCountIs(options.maxSteps)
  })
  const chunks: Array<UIMessageChunk> = []
  const stream = toUIMessageStream({
    stream: result.stream,
    ...(aiTools === undefined ? {} : { tools: aiTools }),
    originalMessages: options.messages,
    generateMessageId: () => "reference-message"
  })
  try {
    for await (const chunk of stream) chunks.push(chunk)
  } catch (thrown) {
    return { chunks, thrown }
  }
  return { chunks, usage: await result.totalUsage }
}

/**
 * Chunks with generated ids replaced by their order of appearance and the
 * finish chunk's metadata removed: what must match the AI SDK exactly.
 */
export const normalize = (chunks: ReadonlyArray<UIMessageChunk>): Array<unknown> => {
  const ids = new Map<string, string>()
  const idFor = (id: string) => {
    let normal = ids.get(id)
    if (normal === undefined) {
      normal = `id-${ids.size}`
      ids.set(id, normal)
    }
    return normal
  }
  return chunks.map((chunk) => {
    const copy: Record<string, unknown> = { ...chunk }
    if (chunk.type === "start" && chunk.messageId !== undefined) copy.messageId = idFor(chunk.messageId)
    if ("id" in chunk && typeof chunk.id === "string" && chunk.type !== "steering-message") copy.id = idFor(chunk.id)
    if (chunk.type === "finish") delete copy.messageMetadata
    return copy
  })
}
