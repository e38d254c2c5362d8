import type { RunEvent } from "../../agent/RunEvent.ts"
import type { Answering } from "../../http/chatProtocol.ts"
import type { StreamEncoding } from "../../http/EncodedStream.ts"
import type { ApiFailure } from "../../http/errorTable.ts"
import { openAiErrorBody } from "../openai/error.ts"
import type { ResponsesWire } from "./decode.ts"
import type { ItemEvent } from "./itemEvents.ts"
import { ResponseItems } from "./items.ts"
import { hostedViewOf } from "./mcpItems.ts"
import { type Ending, endingOf, itemPrefix, OPENING, responseJson, responseShell, unixSeconds } from "./response.ts"

const headers: Readonly<Record<string, string>> = { "cache-control": "no-cache", "x-accel-buffering": "no" }

/** The stream's last data, after its last event, as the Open Responses specification's prose asks. */
const DONE = "data: [DONE]\n\n"

// The events that carry the whole response, from `response.created` to the last.
const responseEvent = (type: string, response: string): ItemEvent =>
  `event: ${type}\ndata: {"type":"${type}","response":${response},"sequence_number":`

/**
 * One streamed answer as the Responses API's named events (docs/DESIGN.md
 * §14), each with its `sequence_number`: `response.created`,
 * `response.in_progress`, the items' events, then `response.completed` or
 * `response.incomplete` (also for a cancelled one, `status: "cancelled"`)
 * with the output and the usage, and `data: [DONE]`. A failure after the
 * first event is `response.failed` with the error (what OpenAI sends, and
 * what the SDKs and the AI SDK read as a failed response); the items still
 * open end incomplete and the run's closing chunks after it are dropped.
 * A response to be stored holds its last event back until it is kept
 * (`end`), so that a client that saw it can retrieve it; a stream that
 * breaks off before (the keeping failed) ends `response.failed` instead.
 */
export const responsesStream = (answering: Answering<ResponsesWire>): StreamEncoding => {
  const { correlationId, wire } = answering
  const items = new ResponseItems(itemPrefix(correlationId, wire), wire.includeEncrypted, hostedViewOf(answering))
  const createdAt = unixSeconds()
  // The response is written three times or more: its request's settings are stringified once (BENCHMARKS.md).
  const response = responseJson(correlationId, wire, createdAt)
  let sequence = 0
  let failed = false
  // The response as it ended, and (when stored) its last event, sent at the end.
  let whole: Record<string, unknown> | undefined
  let held: ItemEvent | undefined
  const numbered = (event: ItemEvent) => `${event}${sequence++}}\n\n`
  const last = (type: string, ending: Ending) => {
    const event = responseEvent(type, response(ending, items.outputJson))
    if (wire.stored === undefined) return numbered(event)
    whole = { ...responseShell(correlationId, wire, createdAt), ...ending, output: items.output }
    held = event
    return ""
  }
  const fail = (failure: ApiFailure | undefined) => {
    if (failed) return ""
    failed = true
    let text = ""
    for (const each of items.closeAll("incomplete")) text += numbered(each)
    const { message } = (openAiErrorBody(failure).body as { error: { message: string } }).error
    return text + last("response.failed", { ...OPENING, status: "failed", error: { code: "server_error", message } })
  }
  return {
    headers,
    chunk: (chunk: RunEvent) => {
      if (failed) return ""
      if (chunk.type === "text-delta" && chunk.delta !== "") {
        const delta = items.appendText(chunk.id, chunk.delta)
        if (delta !== undefined) return numbered(delta)
      }
      let text = ""
      if (chunk.type === "start") {
        const opening = response(OPENING, [])
        text = numbered(responseEvent("response.created", opening)) +
          numbered(responseEvent("response.in_progress", opening))
      }
      for (const each of items.events(chunk)) text += numbered(each)
      const summary = chunk.type === "finish" ? chunk.summary : undefined
      if (summary === undefined) return text
      const ending = endingOf(summary, items.calledClientTools)
      return text + last(ending.status === "completed" ? "response.completed" : "response.incomplete", ending)
    },
    failure: fail,
    end: () => held === undefined ? DONE : numbered(held) + DONE,
    whole: wire.stored === undefined ? undefined : () => whole,
    broken: (failure) => {
      // Held back and never kept: the client is told it failed, as it would be had the run broken off.
      if (held !== undefined) {
        held = undefined
        failed = false
      }
      const text = fail(failure)
      return (held === undefined ? text : text + numbered(held)) + DONE
    }
  }
}
