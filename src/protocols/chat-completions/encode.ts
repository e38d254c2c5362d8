import type { UIMessageChunk } from "ai"
import type { Answering } from "../../http/chatProtocol.ts"
import type { StreamEncoding } from "../../http/SseWriter.ts"
import { openAiErrorBody } from "../openai/error.ts"
import type { CompletionWire } from "./decode.ts"
import { CompletionDeltas, finishReasonOf, usageOf } from "./deltas.ts"

const headers: Readonly<Record<string, string>> = { "cache-control": "no-cache", "x-accel-buffering": "no" }

const DONE = "data: [DONE]\n\n"

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`

/** What follows a chunk's delta until the answer finishes. */
const TAIL = `,"logprobs":null,"finish_reason":null}]}\n\n`

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
  // The answer's fields are the same in every chunk: written once, each chunk adds its delta (BENCHMARKS.md).
  const answer = JSON.stringify({
    id: completionId(correlationId),
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: wire.model
  }).slice(0, -1)
  const head = `data: ${answer},"choices":[{"index":0,"delta":`
  // Most chunks add one string to the delta: the rest of such a chunk is written once an answer (or a call).
  const contentHead = `${head}{"content":`
  const reasoningHead = `${head}{"reasoning_content":`
  const argumentsHeads: Array<string> = []
  const argumentsHead = (index: number) => {
    argumentsHeads[index] ??= `${head}{"tool_calls":[{"index":${index},"function":{"arguments":`
    return argumentsHeads[index]
  }
  let failed = false
  const error = (body: unknown) => {
    failed = true
    return data(body)
  }
  return {
    headers,
    chunk: (chunk: UIMessageChunk) => {
      if (failed) return ""
      switch (chunk.type) {
        case "text-delta": {
          const content = deltas.text(chunk.delta)
          return content === undefined ? "" : `${contentHead}${JSON.stringify(content)}}${TAIL}`
        }
        case "reasoning-delta":
          if (chunk.delta !== "") return `${reasoningHead}${JSON.stringify(chunk.delta)}}${TAIL}`
          break
        case "tool-input-delta": {
          const index = deltas.toolInput(chunk.toolCallId, chunk.inputTextDelta)
          return index === undefined ? "" : `${argumentsHead(index)}${JSON.stringify(chunk.inputTextDelta)}}}]}${TAIL}`
        }
      }
      const delta = deltas.delta(chunk)
      if (delta !== undefined) return `${head}${JSON.stringify(delta)}${TAIL}`
      const summary = chunk.type === "finish" ? deltas.summary : undefined
      if (summary === undefined) return ""
      const finishReason = JSON.stringify(finishReasonOf(summary, deltas.calledClientTools))
      const last = `${head}{},"logprobs":null,"finish_reason":${finishReason}}]}\n\n`
      return wire.includeUsage
        ? `${last}data: ${answer},"choices":[],"usage":${JSON.stringify(usageOf(summary.usage))}}\n\n`
        : last
    },
    failure: (failure) => error(openAiErrorBody(failure).body),
    end: DONE,
    broken: (failure) => (failed ? "" : error(openAiErrorBody(failure).body)) + DONE
  }
}
