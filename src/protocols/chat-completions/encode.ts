import type { RunEvent } from "../../agent/RunEvent.ts"
import type { Answering } from "../../http/chatProtocol.ts"
import type { StreamEncoding } from "../../http/EncodedStream.ts"
import { type JsonTemplate, jsonTemplate } from "../jsonTemplate.ts"
import { openAiErrorBody } from "../openai/error.ts"
import type { CompletionWire } from "./decode.ts"
import { CompletionDeltas, finishReasonOf, usageOf } from "./deltas.ts"

const headers: Readonly<Record<string, string>> = { "cache-control": "no-cache", "x-accel-buffering": "no" }

const DONE = "data: [DONE]\n\n"

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`

// Every event of an answer is one of these shapes; the answer's own fields fill the first three holes once
// (BENCHMARKS.md, issue 21).
const event = (id: string, created: number, model: string, delta: unknown, finish_reason: string | null) => ({
  id,
  object: "chat.completion.chunk",
  created,
  model,
  choices: [{ index: 0, delta, logprobs: null, finish_reason }]
})
const sse = { before: "data: " }
const deltaEvent = jsonTemplate(
  (id: string, created: number, model: string, delta: unknown) => event(id, created, model, delta, null),
  sse
)
const contentEvent = jsonTemplate(
  (id: string, created: number, model: string, content: string) => event(id, created, model, { content }, null),
  sse
)
const reasoningEvent = jsonTemplate(
  (id: string, created: number, model: string, reasoning: string) =>
    event(id, created, model, { reasoning_content: reasoning }, null),
  sse
)
const argumentsEvent = jsonTemplate(
  (id: string, created: number, model: string, index: number, args: string) =>
    event(id, created, model, { tool_calls: [{ index, function: { arguments: args } }] }, null),
  sse
)
const lastEvent = jsonTemplate(
  (id: string, created: number, model: string, finishReason: string) => event(id, created, model, {}, finishReason),
  sse
)
const usageEvent = jsonTemplate((id: string, created: number, model: string, usage: unknown) => ({
  id,
  object: "chat.completion.chunk",
  created,
  model,
  choices: [],
  usage
}), sse)

/** The answer's id, `chatcmpl-` and the request's correlation id, so that a client's logs meet parley's. */
export const completionId = (correlationId: string) => `chatcmpl-${correlationId}`

/**
 * One streamed answer as `chat.completion.chunk` events (docs/DESIGN.md §14):
 * the role first, the deltas, a last chunk with the finish reason, the usage
 * chunk when `stream_options.include_usage` asked for it, and `[DONE]`. A
 * failure after the first byte is an `error` event in OpenAI's envelope
 * (the SDKs raise it), and the run's closing chunks after it are dropped.
 */
export const completionStream = ({ correlationId, wire }: Answering<CompletionWire>): StreamEncoding => {
  const deltas = new CompletionDeltas()
  const answer = [
    JSON.stringify(completionId(correlationId)),
    `${Math.floor(Date.now() / 1000)}`,
    JSON.stringify(wire.model)
  ] as const
  const delta = deltaEvent.with(...answer)
  // Most events add one string to the delta: their shapes are filled with the answer's fields when first used.
  let content: JsonTemplate<[string]> | undefined
  let reasoning: JsonTemplate<[string]> | undefined
  let args: JsonTemplate<[number, string]> | undefined
  let failed = false
  const error = (body: unknown) => {
    failed = true
    return data(body)
  }
  return {
    headers,
    chunk: (chunk: RunEvent) => {
      if (failed) return ""
      switch (chunk.type) {
        case "text-delta": {
          const text = deltas.text(chunk.delta)
          if (text === undefined) return ""
          return `${(content ??= contentEvent.with(...answer)).fill(JSON.stringify(text))}\n\n`
        }
        case "reasoning-delta":
          if (chunk.delta === "") break
          return `${(reasoning ??= reasoningEvent.with(...answer)).fill(JSON.stringify(chunk.delta))}\n\n`
        case "tool-input-delta": {
          const index = deltas.toolInput(chunk.toolCallId, chunk.inputTextDelta)
          if (index === undefined) return ""
          return `${
            (args ??= argumentsEvent.with(...answer)).fill(`${index}`, JSON.stringify(chunk.inputTextDelta))
          }\n\n`
        }
      }
      const change = deltas.delta(chunk)
      if (change !== undefined) return `${delta.fill(JSON.stringify(change))}\n\n`
      const summary = chunk.type === "finish" ? chunk.summary : undefined
      if (summary === undefined) return ""
      const last = `${lastEvent.fill(...answer, JSON.stringify(finishReasonOf(summary, deltas.calledClientTools)))}\n\n`
      return wire.includeUsage
        ? `${last}${usageEvent.fill(...answer, JSON.stringify(usageOf(summary.usage)))}\n\n`
        : last
    },
    failure: (failure) => error(openAiErrorBody(failure).body),
    end: () => DONE,
    broken: (failure) => (failed ? "" : error(openAiErrorBody(failure).body)) + DONE
  }
}
