import type { UIMessageChunk } from "ai"
import type { Answering } from "../../http/chatProtocol.ts"
import type { ApiFailure } from "../../http/errorTable.ts"
import type { StreamEncoding } from "../../http/SseWriter.ts"
import { openAiErrorBody } from "../openai/error.ts"
import type { ResponsesWire } from "./decode.ts"
import type { ItemEvent } from "./itemEvent.ts"
import { ResponseItems } from "./items.ts"
import { hostedViewOf } from "./mcpItems.ts"
import { itemPrefix, outcomeOf, responseShell, usageOf } from "./response.ts"

const headers: Readonly<Record<string, string>> = { "cache-control": "no-cache", "x-accel-buffering": "no" }

/**
 * One streamed answer as the Responses API's named events (docs/DESIGN.md
 * §14), each with its `sequence_number`: `response.created`,
 * `response.in_progress`, the items' events, then `response.completed` or
 * `response.incomplete` with the output and the usage. A failure after the
 * first event is `response.failed` with the error (what OpenAI sends, and
 * what the SDKs and the AI SDK read as a failed response); the items still
 * open end incomplete and the run's closing chunks after it are dropped.
 * A response to be stored holds its last event back until it is kept
 * (`end`), so that a client that saw it can retrieve it; a stream that
 * breaks off before (the keeping failed) ends `response.failed` instead.
 */
export const responsesStream = (answering: Answering<ResponsesWire>): StreamEncoding => {
  const { correlationId, wire } = answering
  const items = new ResponseItems(
    wire.clientTools,
    itemPrefix(correlationId, wire),
    wire.includeEncrypted,
    hostedViewOf(answering)
  )
  const shell = responseShell(correlationId, wire, Math.floor(Date.now() / 1000))
  let sequence = 0
  let failed = false
  // The response as it ended, and (when stored) its last event's type, sent at the end.
  let whole: Record<string, unknown> | undefined
  let held: string | undefined
  const event = (value: ItemEvent) =>
    `event: ${value.type}\ndata: ${JSON.stringify(value).slice(0, -1)},"sequence_number":${sequence++}}\n\n`
  // Most events are text deltas of one open message: its fields are written once an item (BENCHMARKS.md).
  const frames = new Map<string, string>()
  const frameOf = (item: { readonly id: string }, index: number) => {
    let frame = frames.get(item.id)
    if (frame === undefined) {
      frame = `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","item_id":${
        JSON.stringify(item.id)
      },"output_index":${index},"content_index":0,"delta":`
      frames.set(item.id, frame)
    }
    return frame
  }
  const last = (type: string, response: Record<string, unknown>) => {
    whole = response
    if (wire.stored === undefined) return event({ type, response })
    held = type
    return ""
  }
  const fail = (failure: ApiFailure | undefined) => {
    if (failed) return ""
    failed = true
    let text = ""
    for (const each of items.closeAll("incomplete")) text += event(each)
    const { message } = (openAiErrorBody(failure).body as { error: { message: string } }).error
    return text + last(
      "response.failed",
      { ...shell, status: "failed", error: { code: "server_error", message }, output: items.output }
    )
  }
  return {
    headers,
    chunk: (chunk: UIMessageChunk) => {
      if (failed) return ""
      if (chunk.type === "start") {
        const response = JSON.stringify(shell)
        const opening = (type: string) =>
          `event: ${type}\ndata: {"type":"${type}","response":${response},"sequence_number":${sequence++}}\n\n`
        let text = opening("response.created") + opening("response.in_progress")
        for (const each of items.events(chunk)) text += event(each)
        return text
      }
      if (chunk.type === "text-delta" && chunk.delta !== "") {
        const open = items.appendText(chunk.id, chunk.delta)
        if (open !== undefined) {
          return `${frameOf(open.item, open.index)}${
            JSON.stringify(chunk.delta)
          },"logprobs":[],"sequence_number":${sequence++}}\n\n`
        }
      }
      let text = ""
      for (const each of items.events(chunk)) text += event(each)
      const summary = chunk.type === "finish" ? items.summary : undefined
      if (summary === undefined) return text
      const outcome = outcomeOf(summary, items.calledClientTools)
      return text + last(
        outcome.status === "incomplete" ? "response.incomplete" : `response.${outcome.status}`,
        { ...shell, ...outcome, output: items.output, usage: usageOf(summary.usage) }
      )
    },
    failure: fail,
    get end() {
      return held === undefined || whole === undefined ? "" : event({ type: held, response: whole })
    },
    whole: wire.stored === undefined ? undefined : () => whole,
    broken: (failure) => {
      // Held back and never kept: the client is told it failed, as it would be had the run broken off.
      if (held !== undefined) {
        held = undefined
        failed = false
      }
      const text = fail(failure)
      return held === undefined ? text : text + event({ type: held, response: whole! })
    }
  }
}
