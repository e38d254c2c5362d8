import { getResponseMetadata, mapOpenAICompatibleFinishReason } from "@ai-sdk/openai-compatible/internal"
import {
  InvalidResponseDataError,
  JSONParseError,
  type LanguageModelV4FinishReason,
  type LanguageModelV4StreamPart,
  type SharedV4ProviderMetadata,
  type SharedV4Warning
} from "@ai-sdk/provider"
import { generateId, secureJsonParse, StreamingToolCallTracker } from "@ai-sdk/provider-utils"
import { chatUsage } from "./chatUsage.ts"
import { checkChunk, type ChunkSchema, type ChunkUsage, type Delta, type ToolCallDelta } from "./chunkShape.ts"
import { completionAsChunk } from "./completionChunk.ts"
import { contentParts } from "./contentParts.ts"

export interface StreamPartsOptions {
  readonly warnings: Array<SharedV4Warning>
  /** The providerMetadata key (the provider name, or its camelCase form when the call used that). */
  readonly metadataKey: string
  readonly includeRawChunks: boolean
  readonly chunkSchema: ChunkSchema
}

interface PendingToolCall {
  id: string | null
  bufferedArguments: string
  extraContent: ToolCallDelta["extra_content"]
}

const TEXT_ID = "txt-0"
const INVALID = Symbol("invalid")
const REASONING_ID = "reasoning-0"

/**
 * The parts of one streamed Chat Completions answer, made from each event's
 * `data` as it arrives: the `transform` and `flush` of the AI SDK
 * openai-compatible chat model's `doStream`, step for step (same part
 * order, ids, tool-call tracking, finish reason and usage, but for counts
 * the provider did not send: see `chatUsage`), with a hand check in place
 * of the zod parse of every chunk. Parts go to `emit`
 * synchronously; what the SDK's TransformStream would error with is thrown.
 */
export class StreamParts {
  private readonly emit: (part: LanguageModelV4StreamPart) => void
  private readonly options: StreamPartsOptions
  private readonly toolCalls: StreamingToolCallTracker<ToolCallDelta>
  // Tool-call deltas by index until their function name is known (some servers send it late).
  private readonly pendingToolCalls = new Map<number, PendingToolCall>()
  private readonly forwardedToolCallIndices = new Set<number>()
  private finishReason: LanguageModelV4FinishReason | undefined = undefined
  private rawFinishReason: string | undefined = undefined
  private usage: ChunkUsage | null | undefined = undefined
  private metadataExtracted = false
  private isActiveReasoning = false
  private isActiveText = false
  private hasRefusal = false

  constructor(emit: (part: LanguageModelV4StreamPart) => void, options: StreamPartsOptions) {
    this.emit = emit
    this.options = options
    const key = options.metadataKey
    this.toolCalls = new StreamingToolCallTracker<ToolCallDelta>({ enqueue: emit }, {
      generateId,
      extractMetadata: (delta) => {
        const thoughtSignature = delta.extra_content?.google?.thought_signature
        return thoughtSignature ? { [key]: { thoughtSignature } } : undefined
      },
      buildToolCallProviderMetadata: (metadata) => metadata
    })
  }

  start(): void {
    this.emit({ type: "stream-start", warnings: this.options.warnings })
  }

  /** One event's `data`. */
  data(text: string): void {
    // The end marker OpenAI sends; the stream ends when the response does.
    if (text === "[DONE]") return
    const value = this.parse(text)
    if (value !== INVALID) this.chunk(value)
  }

  /** A non-streamed answer's whole body, read as the one chunk that carries all of it. */
  whole(text: string): void {
    const value = this.parse(text)
    if (value !== INVALID) this.chunk(completionAsChunk(value))
  }

  private parse(text: string): unknown {
    let value: unknown
    try {
      value = secureJsonParse(text)
    } catch (cause) {
      if (this.options.includeRawChunks) this.emit({ type: "raw", rawValue: undefined })
      this.failChunk(new JSONParseError({ text, cause }))
      return INVALID
    }
    if (this.options.includeRawChunks) this.emit({ type: "raw", rawValue: value })
    return value
  }

  private chunk(value: unknown): void {
    const checked = checkChunk(value, this.options.chunkSchema)
    if (!checked.success) return this.failChunk(checked.error)
    const chunk = checked.chunk
    if ("error" in chunk) return this.failChunk(chunk.error)

    // Once; some providers send a placeholder chunk with empty metadata first.
    if (!this.metadataExtracted) {
      const metadata = getResponseMetadata(chunk)
      if (Object.values(metadata).some(Boolean)) {
        this.metadataExtracted = true
        this.emit({ type: "response-metadata", ...metadata })
      }
    }
    if (chunk.usage != null) this.usage = chunk.usage
    const choice = chunk.choices[0]
    // Mapped in flush: a refusal in the same chunk turns `stop` into `content-filter`.
    if (choice?.finish_reason != null) this.rawFinishReason = choice.finish_reason
    if (choice?.delta != null) this.delta(choice.delta)
  }

  flush(): void {
    if (this.isActiveReasoning) this.emit({ type: "reasoning-end", id: REASONING_ID })
    if (this.isActiveText) this.emit({ type: "text-end", id: TEXT_ID })
    // Calls that never got a name: the tracker throws, as the SDK's does.
    for (const [index, pending] of this.pendingToolCalls) {
      this.toolCalls.processDelta({ index, id: pending.id, function: { arguments: pending.bufferedArguments } })
    }
    this.pendingToolCalls.clear()
    this.toolCalls.flush()

    if (this.rawFinishReason != null) {
      this.finishReason = {
        unified: mapOpenAICompatibleFinishReason(this.rawFinishReason, { hasRefusal: this.hasRefusal }),
        raw: this.rawFinishReason
      }
    }
    if (this.finishReason == null) {
      this.finishReason = { unified: "error", raw: undefined }
      this.emit({
        type: "error",
        error: new InvalidResponseDataError({
          data: undefined,
          message: "Response stream ended without a finish reason."
        })
      })
    }
    const key = this.options.metadataKey
    const details = this.usage?.completion_tokens_details
    const own: Record<string, number> = {}
    if (details?.accepted_prediction_tokens != null) own.acceptedPredictionTokens = details.accepted_prediction_tokens
    if (details?.rejected_prediction_tokens != null) own.rejectedPredictionTokens = details.rejected_prediction_tokens
    const providerMetadata: SharedV4ProviderMetadata = { [key]: own }
    this.emit({
      type: "finish",
      finishReason: this.finishReason,
      usage: chatUsage(this.usage),
      providerMetadata
    })
  }

  private failChunk(error: unknown): void {
    this.finishReason = { unified: "error", raw: undefined }
    this.rawFinishReason = undefined
    this.emit({ type: "error", error })
  }

  private delta(delta: Delta): void {
    // Reasoning before text; `reasoning` is what providers serving gpt-oss send.
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (reasoning) this.reasoningDelta(reasoning)
    for (const part of contentParts(delta.content)) {
      if (part.type === "reasoning") this.reasoningDelta(part.text)
      else this.textDelta(part.text)
    }
    const refusal = typeof delta.refusal === "string" ? delta.refusal : undefined
    if (refusal != null && refusal.length > 0) {
      this.hasRefusal = true
      this.textDelta(refusal)
    }
    const toolCalls = delta.tool_calls
    if (toolCalls != null && toolCalls.length > 0) {
      if (this.isActiveReasoning) {
        this.emit({ type: "reasoning-end", id: REASONING_ID })
        this.isActiveReasoning = false
      }
      for (const toolCall of toolCalls) this.toolCallDelta(toolCall)
    }
  }

  private reasoningDelta(delta: string): void {
    if (this.isActiveText) {
      this.emit({ type: "text-end", id: TEXT_ID })
      this.isActiveText = false
    }
    if (!this.isActiveReasoning) {
      this.emit({ type: "reasoning-start", id: REASONING_ID })
      this.isActiveReasoning = true
    }
    this.emit({ type: "reasoning-delta", id: REASONING_ID, delta })
  }

  private textDelta(delta: string): void {
    if (this.isActiveReasoning) {
      this.emit({ type: "reasoning-end", id: REASONING_ID })
      this.isActiveReasoning = false
    }
    if (!this.isActiveText) {
      this.emit({ type: "text-start", id: TEXT_ID })
      this.isActiveText = true
    }
    this.emit({ type: "text-delta", id: TEXT_ID, delta })
  }

  private toolCallDelta(toolCallDelta: ToolCallDelta): void {
    const index = toolCallDelta.index
    if (index == null || this.forwardedToolCallIndices.has(index)) return this.toolCalls.processDelta(toolCallDelta)

    let pending = this.pendingToolCalls.get(index)
    if (pending == null) {
      pending = {
        id: toolCallDelta.id ?? null,
        bufferedArguments: "",
        extraContent: toolCallDelta.extra_content ?? null
      }
      this.pendingToolCalls.set(index, pending)
    } else {
      if (pending.id == null && toolCallDelta.id != null) pending.id = toolCallDelta.id
      if (pending.extraContent == null && toolCallDelta.extra_content != null) {
        pending.extraContent = toolCallDelta.extra_content
      }
    }
    const argumentsDelta = toolCallDelta.function?.arguments
    if (argumentsDelta != null) pending.bufferedArguments += argumentsDelta

    const name = toolCallDelta.function?.name
    if (name != null) {
      this.toolCalls.processDelta({
        index,
        id: pending.id,
        function: { name, arguments: pending.bufferedArguments },
        extra_content: pending.extraContent ?? undefined
      })
      this.pendingToolCalls.delete(index)
      this.forwardedToolCallIndices.add(index)
    }
  }
}
