import type { UIMessageChunk } from "ai"
import type { Answering } from "../../http/chatProtocol.ts"
import type { StreamEncoding } from "../../http/SseWriter.ts"
import { anthropicErrorBody } from "../anthropic/error.ts"
import type { MessagesWire } from "./decode.ts"
import { MessageEvents, stopReasonOf, usageOf } from "./events.ts"

const headers: Readonly<Record<string, string>> = { "cache-control": "no-cache", "x-accel-buffering": "no" }

/** Anthropic's SDKs and Claude Code take a quiet stream for a dead one; Anthropic pings every 15 s. */
const PING_EVERY_MS = 15_000

const event = <T extends { readonly type: string }>(value: T) =>
  `event: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`

// Most events continue one open text block: written without building and stringifying an event (BENCHMARKS.md).
const textDelta = (index: number, text: string) =>
  `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${
    JSON.stringify(text)
  }}}\n\n`

/** The answer's id, `msg_` and the request's correlation id, so that a client's logs meet parley's. */
const messageId = (correlationId: string) => `msg_${correlationId}`

/** The message as `message_start` carries it, and as the whole answer begins. */
export const messageShell = (correlationId: string, model: string) => ({
  id: messageId(correlationId),
  type: "message",
  role: "assistant",
  model,
  content: [] as Array<unknown>,
  stop_reason: null as string | null,
  stop_sequence: null,
  usage: usageOf({})
})

/**
 * One streamed answer as Anthropic's named events (docs/DESIGN.md §14):
 * `message_start`, the content blocks, `message_delta` with the stop reason
 * and the usage, `message_stop`; a `ping` after 15 s without an event. A
 * failure after the first byte is an `error` event in Anthropic's envelope
 * (the SDKs raise it), and the run's closing chunks after it are dropped.
 */
export const messagesStream = ({ correlationId, wire }: Answering<MessagesWire>): StreamEncoding => {
  const events = new MessageEvents(wire.clientTools, wire.hosted)
  let failed = false
  const error = (body: unknown) => {
    failed = true
    return `event: error\ndata: ${JSON.stringify(body)}\n\n`
  }
  return {
    headers,
    chunk: (chunk: UIMessageChunk) => {
      if (failed) return ""
      if (chunk.type === "start") {
        return event({ type: "message_start", message: messageShell(correlationId, wire.model) })
      }
      if (chunk.type === "text-delta" && chunk.delta !== "") {
        const index = events.openText(chunk.id)
        if (index !== undefined) return textDelta(index, chunk.delta)
      }
      let text = ""
      for (const each of events.events(chunk)) text += event(each)
      const summary = chunk.type === "finish" ? events.summary : undefined
      if (summary === undefined) return text
      return text + event({
        type: "message_delta",
        delta: { stop_reason: stopReasonOf(summary, events.calledClientTools), stop_sequence: null },
        usage: usageOf(summary.usage)
      }) + event({ type: "message_stop" })
    },
    failure: (failure) => error(anthropicErrorBody(failure).body),
    end: "",
    broken: (failure) => (failed ? "" : error(anthropicErrorBody(failure).body)),
    keepAlive: { everyMs: PING_EVERY_MS, text: event({ type: "ping" }) }
  }
}
