import type { RunEvent } from "../../agent/RunEvent.ts"
import type { Answering } from "../../http/chatProtocol.ts"
import type { StreamEncoding } from "../../http/EncodedStream.ts"
import { anthropicErrorBody } from "../anthropic/error.ts"
import { jsonTemplate } from "../jsonTemplate.ts"
import type { MessagesWire } from "./decode.ts"
import { type BlockEvent, MessageEvents, stopReasonOf, usageOf } from "./events.ts"

const headers: Readonly<Record<string, string>> = { "cache-control": "no-cache", "x-accel-buffering": "no" }

/** Anthropic's SDKs and Claude Code take a quiet stream for a dead one; Anthropic pings every 15 s. */
const PING_EVERY_MS = 15_000

const event = <T extends { readonly type: string }>(value: T) =>
  `event: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`

/** The answer's id, `msg_` and the request's correlation id, so that a client's logs meet parley's. */
const messageId = (correlationId: string) => `msg_${correlationId}`

const messageFields = (id: string, model: string) => ({
  id,
  type: "message",
  role: "assistant",
  model,
  content: [] as Array<unknown>,
  stop_reason: null as string | null,
  stop_sequence: null,
  usage: usageOf({})
})

/** The message as `message_start` carries it, and as the whole answer begins. */
export const messageShell = (correlationId: string, model: string) => messageFields(messageId(correlationId), model)

// Each answer's events but its blocks': written from templates, with only their values stringified (BENCHMARKS.md).
const frame = <Holes extends ReadonlyArray<unknown>>(type: string, shape: (...holes: Holes) => object) =>
  jsonTemplate((...holes: Holes) => ({ type, ...shape(...holes) }), { before: `event: ${type}\ndata: ` })
const messageStart = frame("message_start", (id: string, model: string) => ({ message: messageFields(id, model) }))
const messageDelta = frame(
  "message_delta",
  (stop_reason: unknown, usage: unknown) => ({ delta: { stop_reason, stop_sequence: null }, usage })
)
const MESSAGE_STOP = event({ type: "message_stop" })
// Most events continue one open text block.
const textDelta = frame("content_block_delta", (index, text) => ({ index, delta: { type: "text_delta", text } }))

/**
 * One streamed answer as Anthropic's named events (docs/DESIGN.md §14):
 * `message_start`, the content blocks, `message_delta` with the stop reason
 * and the usage, `message_stop`; a `ping` after 15 s without an event. A
 * failure after the first byte is an `error` event in Anthropic's envelope
 * (the SDKs raise it), and the run's closing chunks after it are dropped.
 */
export const messagesStream = ({ correlationId, wire }: Answering<MessagesWire>): StreamEncoding => {
  const events = new MessageEvents(wire.hosted)
  let failed = false
  const error = (body: unknown) => {
    failed = true
    return `event: error\ndata: ${JSON.stringify(body)}\n\n`
  }
  return {
    headers,
    chunk: (chunk: RunEvent) => {
      if (failed) return ""
      if (chunk.type === "start") {
        return `${messageStart.fill(JSON.stringify(messageId(correlationId)), JSON.stringify(wire.model))}\n\n`
      }
      if (chunk.type === "text-delta" && chunk.delta !== "") {
        const index = events.openText(chunk.id)
        if (index !== undefined) return `${textDelta.fill(`${index}`, JSON.stringify(chunk.delta))}\n\n`
      }
      let text = ""
      for (const each of events.events(chunk)) text += event<BlockEvent>(each)
      const summary = chunk.type === "finish" ? chunk.summary : undefined
      if (summary === undefined) return text
      const reason = stopReasonOf(summary, events.calledClientTools)
      return `${text}${
        messageDelta.fill(JSON.stringify(reason), JSON.stringify(usageOf(summary.usage)))
      }\n\n${MESSAGE_STOP}`
    },
    failure: (failure) => error(anthropicErrorBody(failure).body),
    end: () => "",
    broken: (failure) => (failed ? "" : error(anthropicErrorBody(failure).body)),
    keepAlive: { everyMs: PING_EVERY_MS, text: event({ type: "ping" }) }
  }
}
