import type { UIMessageChunk } from "ai"
import type { Answering } from "../../http/chatProtocol.ts"
import type { StreamEncoding } from "../../http/SseWriter.ts"
import { openAiErrorBody } from "../openai/error.ts"
import type { CompletionWire } from "./decode.ts"
import { CompletionDeltas, type Delta, finishReasonOf, usageOf } from "./deltas.ts"

const headers: Readonly<Record<string, string>> = { "cache-control": "no-cache", "x-accel-buffering": "no" }

const DONE = "data: [DONE]\n\n"

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`

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
  const deltas = new CompletionDeltas(wire.clientTools)
  const meta = {
    id: completionId(correlationId),
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: wire.model
  }
  // The answer's fields are the same in every chunk: written once, each chunk adds its delta (BENCHMARKS.md).
  const head = `data: ${JSON.stringify(meta).slice(0, -1)},"choices":[{"index":0,"delta":`
  let failed = false
  const frame = (delta: Delta | Record<string, never>, finishReason: string | null = null) =>
    `${head}${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finishReason)}}]}\n\n`
  const error = (body: unknown) => {
    failed = true
    return data(body)
  }
  return {
    headers,
    chunk: (chunk: UIMessageChunk) => {
      if (failed) return ""
      const delta = deltas.delta(chunk)
      if (delta !== undefined) return frame(delta)
      const summary = chunk.type === "finish" ? deltas.summary : undefined
      if (summary === undefined) return ""
      const last = frame({}, finishReasonOf(summary, deltas.calledClientTools))
      return wire.includeUsage ? last + data({ ...meta, choices: [], usage: usageOf(summary.usage) }) : last
    },
    failure: (failure) => error(openAiErrorBody(failure).body),
    end: DONE,
    broken: (failure) => (failed ? "" : error(openAiErrorBody(failure).body)) + DONE
  }
}
