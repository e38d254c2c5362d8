import { type JsonTemplate, jsonTemplate } from "../jsonTemplate.ts"

/** An output item as the response lists it (`message`, `reasoning`, `function_call`, `mcp_call`…). */
export type OutputItem = Record<string, unknown> & { readonly id: string; readonly type: string }

/**
 * A stream event as its server-sent frame up to its `sequence_number`'s
 * value, which the stream writes (./encode.ts): events are numbered as they
 * go out, and a stored response's last one waits.
 */
export type ItemEvent = string

/**
 * The frame of an event of `type` with `fields`, each of their holes a JSON
 * text (./jsonTemplate.ts); filled, it stops at the sequence number.
 */
const eventFrame = <Holes extends ReadonlyArray<unknown>>(
  type: string,
  fields: (...holes: Holes) => object
): JsonTemplate<Holes> =>
  jsonTemplate<ReadonlyArray<unknown>>(
    (...holes) => ({ type, ...fields(...(holes as Holes)), sequence_number: holes[fields.length] }),
    { before: `event: ${type}\ndata: ` }
  )

/** A text part, of a message item's `content`. */
export const outputText = (text: string) => ({ type: "output_text", text, annotations: [] })
export const outputTextJson = jsonTemplate(outputText)

/** A summary part, of a reasoning item's `summary`. */
export const summaryText = (text: string) => ({ type: "summary_text", text })

/** The assistant's message item, whose stream is most of what a text answer sends. */
export const messageItem = (id: string, status: string, content: ReadonlyArray<unknown>): OutputItem => ({
  id,
  type: "message",
  role: "assistant",
  status,
  content
})
export const messageItemJson = jsonTemplate(messageItem)

export const itemAdded = eventFrame("response.output_item.added", (output_index, item) => ({ output_index, item }))
export const itemDone = eventFrame("response.output_item.done", (output_index, item) => ({ output_index, item }))

export const partAdded = eventFrame(
  "response.content_part.added",
  (item_id, output_index) => ({ item_id, output_index, content_index: 0, part: outputText("") })
)
export const textDelta = eventFrame(
  "response.output_text.delta",
  (item_id, output_index, delta) => ({ item_id, output_index, content_index: 0, delta, logprobs: [] })
)
export const textDone = eventFrame(
  "response.output_text.done",
  (item_id, output_index, text) => ({ item_id, output_index, content_index: 0, text, logprobs: [] })
)
export const partDone = eventFrame(
  "response.content_part.done",
  (item_id, output_index, part) => ({ item_id, output_index, content_index: 0, part })
)

export const summaryPartAdded = eventFrame(
  "response.reasoning_summary_part.added",
  (item_id, output_index) => ({ item_id, output_index, summary_index: 0, part: summaryText("") })
)
export const summaryDelta = eventFrame(
  "response.reasoning_summary_text.delta",
  (item_id, output_index, delta) => ({ item_id, output_index, summary_index: 0, delta })
)
export const summaryDone = eventFrame(
  "response.reasoning_summary_text.done",
  (item_id, output_index, text) => ({ item_id, output_index, summary_index: 0, text })
)
export const summaryPartDone = eventFrame(
  "response.reasoning_summary_part.done",
  (item_id, output_index, part) => ({ item_id, output_index, summary_index: 0, part })
)

export const argumentsDelta = eventFrame(
  "response.function_call_arguments.delta",
  (item_id, output_index, delta) => ({ item_id, output_index, delta })
)
export const argumentsDone = eventFrame(
  "response.function_call_arguments.done",
  (item_id, output_index, name, args) => ({ item_id, output_index, name, arguments: args })
)

export const listToolsInProgress = eventFrame(
  "response.mcp_list_tools.in_progress",
  (item_id, output_index) => ({ item_id, output_index })
)
export const listToolsCompleted = eventFrame(
  "response.mcp_list_tools.completed",
  (item_id, output_index) => ({ item_id, output_index })
)
export const mcpCallInProgress = eventFrame(
  "response.mcp_call.in_progress",
  (item_id, output_index) => ({ item_id, output_index })
)
export const mcpArgumentsDelta = eventFrame(
  "response.mcp_call_arguments.delta",
  (item_id, output_index, delta) => ({ item_id, output_index, delta })
)
export const mcpArgumentsDone = eventFrame(
  "response.mcp_call_arguments.done",
  (item_id, output_index, args) => ({ item_id, output_index, arguments: args })
)
export const mcpCallCompleted = eventFrame(
  "response.mcp_call.completed",
  (item_id, output_index) => ({ item_id, output_index })
)
export const mcpCallFailed = eventFrame(
  "response.mcp_call.failed",
  (item_id, output_index) => ({ item_id, output_index })
)
