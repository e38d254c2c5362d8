import type { Reply, UsageIn } from "./types.ts"

/**
 * OpenAI Chat Completions wire shapes. Both the OpenAI-compatible and the
 * OpenAI chat parsers of the AI SDK accept these (the latter insists on
 * `choices[].index` and `tool_calls[].type`, so they are always present).
 */
export interface ResponseMeta {
  readonly id: string
  readonly created: number
  readonly model: string
}

type Answer = Extract<Reply, { type: "text" | "tool-calls" }>

export const sse = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`
export const SSE_DONE = "data: [DONE]\n\n"

const usageJson = (usage: UsageIn) => ({
  prompt_tokens: usage.promptTokens,
  completion_tokens: usage.completionTokens,
  total_tokens: usage.promptTokens + usage.completionTokens,
  prompt_tokens_details: { cached_tokens: usage.cachedTokens },
  completion_tokens_details: { reasoning_tokens: usage.reasoningTokens }
})

const chunk = (meta: ResponseMeta, delta: object, finishReason: string | null = null) => ({
  id: meta.id,
  object: "chat.completion.chunk",
  created: meta.created,
  model: meta.model,
  choices: [{ index: 0, delta, finish_reason: finishReason }]
})

/** One delta per word (spaces kept with the word before them), or `count` pieces of equal length. */
export const splitText = (text: string, count?: number): Array<string> => {
  if (text.length === 0) return []
  if (count === undefined) return text.match(/\s*\S+\s*/g) ?? [text]
  const pieces = Math.max(1, Math.min(count, text.length))
  const size = Math.ceil(text.length / pieces)
  const out: Array<string> = []
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size))
  return out
}

const argumentsText = (value: unknown): string => typeof value === "string" ? value : JSON.stringify(value ?? {})

const finishReasonOf = (reply: Answer): string =>
  reply.type === "tool-calls" ? "tool_calls" : reply.finishReason ?? "stop"

const textOf = (reply: Answer): string => reply.text ?? ""

const toolCallsOf = (reply: Answer, nextId: () => string) =>
  reply.type === "tool-calls"
    ? reply.calls.map((call) => ({
      id: call.id ?? nextId(),
      name: call.name,
      arguments: argumentsText(call.arguments)
    }))
    : []

/** A rough, deterministic count: four characters a token. */
export const estimateTokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4))

export const usageFor = (reply: Answer, requestBody: any): UsageIn => {
  const outputChars = textOf(reply).length +
    (reply.type === "tool-calls" ? reply.calls.reduce((n, c) => n + argumentsText(c.arguments).length, 0) : 0)
  return {
    promptTokens: estimateTokens(JSON.stringify(requestBody?.messages ?? []).length),
    completionTokens: estimateTokens(outputChars),
    cachedTokens: 0,
    reasoningTokens: 0,
    ...reply.usage
  }
}

/** The SSE frames of a streamed answer, `[DONE]` included. */
export const streamFrames = (
  reply: Answer,
  meta: ResponseMeta,
  usage: UsageIn | undefined,
  nextId: () => string
): Array<string> => {
  const frames = [sse(chunk(meta, { role: "assistant", content: "" }))]
  const reasoning = reply.type === "text" ? reply.reasoning ?? "" : ""
  for (const piece of splitText(reasoning)) frames.push(sse(chunk(meta, { reasoning_content: piece })))
  const chunks = reply.type === "text" ? reply.chunks : undefined
  for (const piece of splitText(textOf(reply), chunks)) frames.push(sse(chunk(meta, { content: piece })))
  toolCallsOf(reply, nextId).forEach((call, index) => {
    frames.push(sse(chunk(meta, {
      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }]
    })))
    for (const piece of splitText(call.arguments, 3)) {
      frames.push(sse(chunk(meta, { tool_calls: [{ index, function: { arguments: piece } }] })))
    }
  })
  frames.push(sse(chunk(meta, {}, finishReasonOf(reply))))
  if (usage !== undefined) frames.push(usageFrame(meta, usage))
  frames.push(SSE_DONE)
  return frames
}

/** One streamed text delta, and what ends a stream (a finish reason, usage, `[DONE]`). */
export const textFrame = (meta: ResponseMeta, content: string): string => sse(chunk(meta, { content }))
export const endFrames = (meta: ResponseMeta, usage: UsageIn): string =>
  sse(chunk(meta, {}, "stop")) + usageFrame(meta, usage) + SSE_DONE

// The last chunk when usage is asked for: no choices, the usage alone.
const usageFrame = (meta: ResponseMeta, usage: UsageIn): string =>
  sse({
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    choices: [],
    usage: usageJson(usage)
  })

/** The frames a broken stream sends before its socket is destroyed. */
export const brokenFrames = (meta: ResponseMeta, afterChunks: number): Array<string> => {
  const frames = [sse(chunk(meta, { role: "assistant", content: "" }))]
  for (let i = 1; i <= afterChunks; i++) frames.push(sse(chunk(meta, { content: `part ${i} ` })))
  return frames
}

/** The body of a non-streamed answer. */
export const completionBody = (reply: Answer, meta: ResponseMeta, usage: UsageIn, nextId: () => string) => {
  const calls = toolCallsOf(reply, nextId)
  const text = textOf(reply)
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: text.length > 0 || calls.length === 0 ? text : null,
        ...(reply.type === "text" && reply.reasoning !== undefined ? { reasoning_content: reply.reasoning } : {}),
        ...(calls.length > 0
          ? {
            tool_calls: calls.map((call) => ({
              id: call.id,
              type: "function",
              function: { name: call.name, arguments: call.arguments }
            }))
          }
          : {})
      },
      logprobs: null,
      finish_reason: finishReasonOf(reply)
    }],
    usage: usageJson(usage)
  }
}

const errorKinds: Record<number, { type: string; code: string; message: string }> = {
  400: { type: "invalid_request_error", code: "invalid_request", message: "Invalid request" },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided" },
  403: { type: "invalid_request_error", code: "forbidden", message: "Forbidden" },
  404: { type: "invalid_request_error", code: "not_found", message: "Not found" },
  429: { type: "rate_limit_error", code: "rate_limit_exceeded", message: "Rate limit reached" }
}

/** OpenAI's error body: `{ error: { message, type, code } }`. */
export const errorBody = (status: number, message?: string) => {
  const kind = errorKinds[status] ?? { type: "server_error", code: "server_error", message: "The server had an error" }
  return { error: { message: message ?? kind.message, type: kind.type, code: kind.code } }
}
