import {
  namedEvent as event,
  type Script,
  type ScriptedAnswer,
  type ScriptedRequest,
  type ScriptedUpstream,
  type ScriptUsage,
  startScripted,
  type Wire,
  type WireAnswer,
  words
} from "./scripted.ts"

/**
 * xAI's Responses API (`POST /v1/responses`, `Authorization: Bearer`), which
 * `@ai-sdk/xai` 5 speaks for every language model: named SSE events
 * (`response.created`, `response.output_item.added|done`,
 * `response.reasoning_summary_text.delta`, `response.output_text.delta`,
 * `response.function_call_arguments.delta`, `response.completed` with the
 * usage), the same output items in a whole answer, and xAI's own error
 * bodies (`{code, error}`).
 */

const CODES: Record<number, string> = {
  400: "Client specified an invalid argument",
  401: "The caller does not have permission to execute the specified operation",
  429: "Some resource has been exhausted",
  500: "Internal error",
  503: "The service is currently unavailable"
}

const errorAnswer = (status: number, message?: string, retryAfter?: number): WireAnswer => ({
  status,
  headers: {
    "content-type": "application/json",
    ...(retryAfter === undefined ? {} : { "retry-after": String(retryAfter) })
  },
  pieces: [JSON.stringify({
    code: CODES[status] ?? "Unknown error",
    error: message ??
      (status === 429 ? "Too many requests: your team has exhausted its rate limit." : "Request failed.")
  })]
})

const usageOf = (usage: ScriptUsage | undefined) => {
  const input = usage?.input ?? 10
  const output = usage?.output ?? 5
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_tokens_details: { cached_tokens: usage?.cached ?? 0 },
    output_tokens_details: { reasoning_tokens: usage?.reasoning ?? 0 },
    num_sources_used: 0,
    cost_in_usd_ticks: 1_000
  }
}

interface Items {
  readonly reasoning?: { readonly id: string; readonly text: string }
  readonly message?: { readonly id: string; readonly text: string }
  readonly calls: ReadonlyArray<
    { readonly id: string; readonly callId: string; readonly name: string; readonly arguments: string }
  >
}

const itemsOf = (script: ScriptedAnswer, nextId: () => string): Items => {
  const reasoning = script.reasoning ?? ""
  const text = script.text ?? ""
  return {
    ...(reasoning === "" ? {} : { reasoning: { id: `rs_${nextId()}`, text: reasoning } }),
    ...(text === "" ? {} : { message: { id: `msg_${nextId()}`, text } }),
    calls: script.type === "tool-calls"
      ? script.calls.map((call) => {
        const n = nextId()
        return {
          id: `fc_${n}`,
          callId: call.id ?? `call_${n}`,
          name: call.name,
          arguments: JSON.stringify(call.arguments)
        }
      })
      : []
  }
}

const reasoningItem = (item: NonNullable<Items["reasoning"]>, done: boolean) => ({
  type: "reasoning",
  id: item.id,
  summary: done ? [{ type: "summary_text", text: item.text }] : [],
  status: done ? "completed" : "in_progress"
})
const messageItem = (item: NonNullable<Items["message"]>, done: boolean) => ({
  type: "message",
  id: item.id,
  role: "assistant",
  content: done ? [{ type: "output_text", text: item.text, annotations: [], logprobs: [] }] : [],
  status: done ? "completed" : "in_progress"
})
const callItem = (item: Items["calls"][number], done: boolean) => ({
  type: "function_call",
  id: item.id,
  call_id: item.callId,
  name: item.name,
  arguments: done ? item.arguments : "",
  status: done ? "completed" : "in_progress"
})

const outputOf = (items: Items) => [
  ...(items.reasoning === undefined ? [] : [reasoningItem(items.reasoning, true)]),
  ...(items.message === undefined ? [] : [messageItem(items.message, true)]),
  ...items.calls.map((call) => callItem(call, true))
]

const responseOf = (request: ScriptedRequest, id: string, status: string, output: Array<object>, usage?: object) => ({
  id,
  object: "response",
  created_at: 1_767_225_600,
  model: request.model,
  output,
  status,
  ...(usage === undefined ? {} : { usage })
})

const streamEvents = (script: ScriptedAnswer, request: ScriptedRequest, nextId: () => string): Array<string> => {
  const id = `resp_${nextId()}`
  const items = itemsOf(script, nextId)
  const events = [
    event("response.created", { response: responseOf(request, id, "in_progress", []) }),
    event("response.in_progress", { response: responseOf(request, id, "in_progress", []) })
  ]
  let index = 0
  if (items.reasoning !== undefined) {
    const item = items.reasoning
    const at = { item_id: item.id, output_index: index, summary_index: 0 }
    events.push(event("response.output_item.added", { item: reasoningItem(item, false), output_index: index }))
    events.push(event("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } }))
    for (const piece of words(item.text)) {
      events.push(event("response.reasoning_summary_text.delta", { ...at, delta: piece }))
    }
    events.push(event("response.reasoning_summary_text.done", { ...at, text: item.text }))
    events.push(
      event("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text: item.text } })
    )
    events.push(event("response.output_item.done", { item: reasoningItem(item, true), output_index: index }))
    index++
  }
  if (items.message !== undefined) {
    const item = items.message
    const at = { item_id: item.id, output_index: index, content_index: 0 }
    events.push(event("response.output_item.added", { item: messageItem(item, false), output_index: index }))
    events.push(event("response.content_part.added", { ...at, part: { type: "output_text", text: "" } }))
    for (const piece of words(item.text)) events.push(event("response.output_text.delta", { ...at, delta: piece }))
    events.push(event("response.output_text.done", { ...at, text: item.text }))
    events.push(event("response.content_part.done", { ...at, part: { type: "output_text", text: item.text } }))
    events.push(event("response.output_item.done", { item: messageItem(item, true), output_index: index }))
    index++
  }
  for (const call of items.calls) {
    const at = { item_id: call.id, output_index: index }
    events.push(event("response.output_item.added", { item: callItem(call, false), output_index: index }))
    for (const piece of [call.arguments.slice(0, 5), call.arguments.slice(5)]) {
      events.push(event("response.function_call_arguments.delta", { ...at, delta: piece }))
    }
    events.push(event("response.function_call_arguments.done", { ...at, arguments: call.arguments }))
    events.push(event("response.output_item.done", { item: callItem(call, true), output_index: index }))
    index++
  }
  events.push(event("response.completed", {
    response: responseOf(request, id, "completed", outputOf(items), usageOf(script.usage))
  }))
  return events
}

export const xaiWire: Wire = {
  basePath: "/v1",
  authorized: (headers, apiKey) => headers.authorization === `Bearer ${apiKey}`,
  unauthorized: () =>
    errorAnswer(400, "Incorrect API key provided. You can obtain an API key from https://console.x.ai."),
  chatRoute: (method, url, body) =>
    method === "POST" && url.pathname === "/v1/responses"
      ? { model: String(body?.model), streaming: body?.stream === true }
      : undefined,
  answer: (script: Script, request, nextId) => {
    if (script.type === "error") return errorAnswer(script.status, script.message, script.retryAfter)
    if (script.type === "stream-error") {
      const code = script.status === 429
        ? "rate_limit_exceeded"
        : script.status === 503
        ? "service_unavailable"
        : "invalid_request_error"
      return {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        pieces: [event("error", { code, message: script.message, param: null })]
      }
    }
    if (request.streaming) {
      return {
        status: 200,
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
        pieces: streamEvents(script, request, nextId)
      }
    }
    const id = `resp_${nextId()}`
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      pieces: [
        JSON.stringify(responseOf(request, id, "completed", outputOf(itemsOf(script, nextId)), usageOf(script.usage)))
      ]
    }
  }
}

/** A scripted xAI Responses API on loopback; its `url` is the `baseURL` for `@ai-sdk/xai`. */
export const startXai = (apiKey: string): Promise<ScriptedUpstream> => startScripted(xaiWire, { apiKey })
