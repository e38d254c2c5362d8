import type { IncomingHttpHeaders } from "node:http"
import {
  type Script,
  type ScriptedAnswer,
  type ScriptedRequest,
  type ScriptUsage,
  type Wire,
  type WireAnswer,
  words
} from "./scripted.ts"

/**
 * Chat Completions as each provider that offers it really sends it: the
 * shapes are OpenAI's, the details each provider's own (where usage goes in a
 * stream, how thinking is sent, tool call ids, error bodies). A dialect
 * names those details; `chatCompletionsWire` writes the rest.
 */
export interface Dialect {
  /** The path of the package's default base URL (`/v1`, `/openai/v1`, or none). */
  readonly basePath: string
  /** The provider's error body for a status, with `message` as its text. */
  readonly errorBody: (status: number, message: string) => unknown
  /** Its usage object. */
  readonly usage: (usage: Required<ScriptUsage>) => Record<string, unknown>
  /**
   * Where a stream reports usage: in the last chunk beside the finish reason
   * (`finish`), in a chunk of its own after it with no choices (`after`), or
   * under the last chunk's `x_groq` (`x_groq`).
   */
  readonly streamUsage: "finish" | "after" | "x_groq"
  /** The delta fields of a piece of thinking, and the message fields of all of it. */
  readonly reasoningDelta: (piece: string) => Record<string, unknown>
  readonly reasoningMessage: (reasoning: string, text: string) => Record<string, unknown>
  /** A tool call id as the provider makes them. */
  readonly toolCallId: (n: string) => string
  /** Tool calls in one delta each (`whole`), or their arguments streamed in pieces after the name (`pieces`). */
  readonly toolCallDeltas: "whole" | "pieces"
  /** The provider's error event inside a stream, where it has one. */
  readonly streamError?: (status: number, message: string) => unknown
  /** A stream of tool calls only opens with `content: null` (OpenAI's own), not `""` (the default). */
  readonly nullContentBeforeCalls?: boolean
  /** Extra fields of every chunk and whole answer (`system_fingerprint`, `x_groq`…). */
  readonly extra?: Record<string, unknown>
}

const MESSAGES: Record<number, string> = {
  401: "Invalid API key",
  429: "Rate limit reached for requests",
  500: "Internal server error",
  503: "Service unavailable"
}

const usageOf = (usage: ScriptUsage | undefined): Required<ScriptUsage> => ({
  input: usage?.input ?? 10,
  output: usage?.output ?? 5,
  cached: usage?.cached ?? 0,
  reasoning: usage?.reasoning ?? 0
})

const finishReason = (script: ScriptedAnswer) =>
  script.type === "tool-calls" ? "tool_calls" : script.length === true ? "length" : "stop"

const reasoningOf = (script: ScriptedAnswer) => script.reasoning ?? ""

export const chatCompletionsWire = (dialect: Dialect): Wire => {
  const error = (status: number, message?: string, retryAfter?: number): WireAnswer => ({
    status,
    headers: {
      "content-type": "application/json",
      ...(retryAfter === undefined ? {} : { "retry-after": String(retryAfter) })
    },
    pieces: [JSON.stringify(dialect.errorBody(status, message ?? MESSAGES[status] ?? "Invalid request"))]
  })

  const callsOf = (script: ScriptedAnswer, nextId: () => string) =>
    script.type === "tool-calls"
      ? script.calls.map((call) => ({
        id: call.id ?? dialect.toolCallId(nextId()),
        name: call.name,
        arguments: JSON.stringify(call.arguments)
      }))
      : []

  const stream = (script: ScriptedAnswer, request: ScriptedRequest, id: string, nextId: () => string) => {
    const created = 1_767_225_600
    // One frame for every chunk; the usage chunk of "after" is one with no choices.
    const frame = (body: object) =>
      `data: ${
        JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created,
          model: request.model,
          ...dialect.extra,
          ...body
        })
      }\n\n`
    const chunk = (delta: object, finish: string | null = null, more: object = {}) =>
      frame({ choices: [{ index: 0, delta, finish_reason: finish }], ...more })
    const usage = dialect.usage(usageOf(script.usage))
    const callsOnly = script.type === "tool-calls" && (script.text ?? "") === "" && reasoningOf(script) === ""
    const events = [
      chunk({ role: "assistant", content: dialect.nullContentBeforeCalls === true && callsOnly ? null : "" })
    ]
    for (const piece of words(reasoningOf(script))) events.push(chunk(dialect.reasoningDelta(piece)))
    for (const piece of words(script.text ?? "")) events.push(chunk({ content: piece }))
    callsOf(script, nextId).forEach((call, index) => {
      if (dialect.toolCallDeltas === "whole") {
        events.push(chunk({
          content: "",
          tool_calls: [{
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
            index
          }]
        }))
        return
      }
      events.push(chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }]
      }))
      for (const piece of [call.arguments.slice(0, 5), call.arguments.slice(5)]) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
      }
    })
    const finish = finishReason(script)
    if (dialect.streamUsage === "finish") events.push(chunk({ content: "" }, finish, { usage }))
    if (dialect.streamUsage === "x_groq") events.push(chunk({}, finish, { x_groq: { id: `req_${id}`, usage } }))
    if (dialect.streamUsage === "after") {
      events.push(chunk({}, finish))
      events.push(frame({ choices: [], usage }))
    }
    events.push("data: [DONE]\n\n")
    return events
  }

  const whole = (script: ScriptedAnswer, request: ScriptedRequest, id: string, nextId: () => string) => {
    const calls = callsOf(script, nextId)
    const reasoning = reasoningOf(script)
    const text = script.text ?? ""
    return {
      id,
      object: "chat.completion",
      created: 1_767_225_600,
      model: request.model,
      ...dialect.extra,
      choices: [{
        index: 0,
        message: {
          role: "assistant",
          content: text === "" && calls.length > 0 ? null : text,
          ...(reasoning === "" ? {} : dialect.reasoningMessage(reasoning, text)),
          ...(calls.length === 0 ? {} : {
            tool_calls: calls.map((call, index) => ({
              id: call.id,
              type: "function",
              function: { name: call.name, arguments: call.arguments },
              index
            }))
          })
        },
        finish_reason: finishReason(script)
      }],
      usage: dialect.usage(usageOf(script.usage))
    }
  }

  return {
    basePath: dialect.basePath,
    authorized: (headers: IncomingHttpHeaders, apiKey: string) => headers.authorization === `Bearer ${apiKey}`,
    unauthorized: () => error(401),
    chatRoute: (method, url, body) =>
      method === "POST" && url.pathname === `${dialect.basePath}/chat/completions`
        ? { model: String(body?.model), streaming: body?.stream === true }
        : undefined,
    answer: (script: Script, request, nextId) => {
      if (script.type === "error") return error(script.status, script.message, script.retryAfter)
      if (script.type === "stream-error") {
        if (dialect.streamError === undefined) throw new Error("this wire has no error event")
        return {
          status: 200,
          headers: { "content-type": "text/event-stream" },
          pieces: [`data: ${JSON.stringify(dialect.streamError(script.status, script.message))}\n\n`]
        }
      }
      const id = `cmpl-${nextId()}`
      return request.streaming
        ? {
          status: 200,
          headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
          pieces: stream(script, request, id, nextId)
        }
        : {
          status: 200,
          headers: { "content-type": "application/json" },
          pieces: [JSON.stringify(whole(script, request, id, nextId))]
        }
    }
  }
}
