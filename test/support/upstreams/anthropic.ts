import {
  namedEvent,
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
 * Anthropic's Messages API (`POST /v1/messages`, the key in `x-api-key`, the
 * `anthropic-version` header required), as `@ai-sdk/anthropic` reads it: a
 * message of `thinking` (signed), `text` and `tool_use` blocks; its stream of
 * named events (`message_start` with the input counts, a `ping`, each block's
 * `content_block_start|delta|stop`, `message_delta` with the stop reason and
 * the output count, `message_stop`); `{type:"error", error:{type, message}}`
 * bodies, also as an `error` event inside a stream begun with 200.
 */

/** The signature Anthropic puts on every thinking block: the next request must send it back. */
export const THINKING_SIGNATURE = "RXVTaWduYXR1cmVPZlRoZVRoaW5raW5nQmxvY2s="

// 503 is no status of Anthropic's: a script's "unavailable" is its 529 overloaded_error.
const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  503: "overloaded_error",
  529: "overloaded_error"
}

const MESSAGES: Record<string, string> = {
  authentication_error: "invalid x-api-key",
  rate_limit_error: "This request would exceed the rate limit for your organization of 50 requests per minute.",
  api_error: "Internal server error",
  overloaded_error: "Overloaded"
}

const errorBody = (status: number, message?: string) => {
  const type = ERROR_TYPES[status] ?? "invalid_request_error"
  return { type: "error", error: { type, message: message ?? MESSAGES[type] ?? "Invalid request" } }
}

const errorAnswer = (status: number, message?: string, retryAfter?: number): WireAnswer => ({
  status,
  headers: {
    "content-type": "application/json",
    ...(retryAfter === undefined ? {} : { "retry-after": String(retryAfter) })
  },
  pieces: [JSON.stringify({ ...errorBody(status, message), request_id: "req_011CParleyTestRequest" })]
})

/**
 * Anthropic's `input_tokens` leaves out what was read from or written to the
 * cache, and `@ai-sdk/anthropic` adds those back for its input total: the
 * script's `input` (parley's count, cache reads included) is sent as
 * `input_tokens` plus `cache_read_input_tokens`.
 */
const inputUsage = (usage: ScriptUsage | undefined) => {
  const cached = usage?.cached ?? 0
  return {
    input_tokens: (usage?.input ?? 10) - cached,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }
  }
}

// Thinking tokens are part of `output_tokens`, told apart in `output_tokens_details` where there were any.
const outputUsage = (usage: ScriptUsage | undefined) => ({
  output_tokens: usage?.output ?? 5,
  ...(usage?.reasoning === undefined ? {} : { output_tokens_details: { thinking_tokens: usage.reasoning } })
})

const stopReason = (script: ScriptedAnswer) =>
  script.type === "tool-calls" ? "tool_use" : script.length === true ? "max_tokens" : "end_turn"

type Block =
  | { readonly type: "thinking"; readonly thinking: string; readonly signature: string }
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly input: unknown }

// Ids shaped like Anthropic's (`msg_01…`, `toolu_01…`), numbered by the server.
const idOf = (prefix: string, nextId: () => string) => `${prefix}_01Parley${nextId().padStart(14, "0")}`

/** The answer's blocks in Anthropic's order: thinking, text, tool uses. */
const blocksOf = (script: ScriptedAnswer, nextId: () => string): Array<Block> => {
  const reasoning = script.reasoning ?? ""
  const text = script.text ?? ""
  const calls = script.type === "tool-calls" ? script.calls : []
  return [
    ...(reasoning === "" ? [] : [{ type: "thinking" as const, thinking: reasoning, signature: THINKING_SIGNATURE }]),
    ...(text === "" ? [] : [{ type: "text" as const, text }]),
    ...calls.map((call) => ({
      type: "tool_use" as const,
      id: call.id ?? idOf("toolu", nextId),
      name: call.name,
      input: call.arguments
    }))
  ]
}

const message = (request: ScriptedRequest, id: string, content: Array<Block>, stop: string | null, usage: object) => ({
  id,
  type: "message",
  role: "assistant",
  model: request.model,
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { ...usage, service_tier: "standard" }
})

/** A block as `content_block_start` opens it, and the deltas that fill it. */
const streamed = (block: Block): [object, Array<object>] => {
  switch (block.type) {
    case "thinking":
      return [{ type: "thinking", thinking: "", signature: "" }, [
        ...words(block.thinking).map((thinking) => ({ type: "thinking_delta", thinking })),
        { type: "signature_delta", signature: block.signature }
      ]]
    case "text":
      return [{ type: "text", text: "" }, words(block.text).map((text) => ({ type: "text_delta", text }))]
    case "tool_use": {
      const json = JSON.stringify(block.input)
      return [
        { type: "tool_use", id: block.id, name: block.name, input: {} },
        ["", json.slice(0, 5), json.slice(5)].map((partial_json) => ({ type: "input_json_delta", partial_json }))
      ]
    }
  }
}

const streamEvents = (script: ScriptedAnswer, request: ScriptedRequest, nextId: () => string): Array<string> => {
  const id = idOf("msg", nextId)
  const events = [
    namedEvent("message_start", {
      message: message(request, id, [], null, { ...inputUsage(script.usage), output_tokens: 1 })
    }),
    namedEvent("ping", {})
  ]
  blocksOf(script, nextId).forEach((block, index) => {
    const [start, deltas] = streamed(block)
    events.push(namedEvent("content_block_start", { index, content_block: start }))
    for (const delta of deltas) events.push(namedEvent("content_block_delta", { index, delta }))
    events.push(namedEvent("content_block_stop", { index }))
  })
  events.push(namedEvent("message_delta", {
    delta: { stop_reason: stopReason(script), stop_sequence: null },
    usage: outputUsage(script.usage)
  }))
  events.push(namedEvent("message_stop", {}))
  return events
}

export const anthropicWire: Wire = {
  basePath: "/v1",
  authorized: (headers, apiKey) => headers["x-api-key"] === apiKey,
  unauthorized: () => errorAnswer(401),
  chatRoute: (method, url, body) =>
    method === "POST" && url.pathname === "/v1/messages"
      ? { model: String(body?.model), streaming: body?.stream === true }
      : undefined,
  answer: (script: Script, request, nextId) => {
    // Anthropic refuses a request without the API version it is written against.
    if (typeof request.headers["anthropic-version"] !== "string") {
      return errorAnswer(400, "anthropic-version: header is required")
    }
    if (script.type === "error") return errorAnswer(script.status, script.message, script.retryAfter)
    if (script.type === "stream-error") {
      return {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        pieces: [namedEvent("error", errorBody(script.status, script.message))]
      }
    }
    if (request.streaming) {
      return {
        status: 200,
        headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
        pieces: streamEvents(script, request, nextId)
      }
    }
    const id = idOf("msg", nextId)
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      pieces: [JSON.stringify(message(request, id, blocksOf(script, nextId), stopReason(script), {
        ...inputUsage(script.usage),
        ...outputUsage(script.usage)
      }))]
    }
  }
}

/** A scripted Anthropic Messages API on loopback; its `url` is the `baseURL` for `@ai-sdk/anthropic`. */
export const startAnthropicUpstream = (apiKey: string): Promise<ScriptedUpstream> =>
  startScripted(anthropicWire, { apiKey })
