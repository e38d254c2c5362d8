import {
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
 * The Gemini API's own wire, as `@ai-sdk/google` talks it: `POST
 * /v1beta/models/{model}:generateContent` (a whole answer) and
 * `:streamGenerateContent?alt=sse` (each event a `GenerateContentResponse`,
 * separated by CRLF CRLF as Google sends them), the key in `x-goog-api-key`,
 * `functionCall` parts with `thoughtSignature`, `thought` parts,
 * `usageMetadata`, and `{error:{code,message,status}}` bodies.
 */

/** A signature on every function call, as Gemini 3 sends it: the next request must send it back. */
export const THOUGHT_SIGNATURE = "c2lnbmF0dXJlLW9mLXRoZS10aG91Z2h0"

const ROUTE = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE"
}

const MESSAGES: Record<number, string> = {
  429: "Resource has been exhausted (e.g. check quota).",
  500:
    "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  503: "The model is overloaded. Please try again later."
}

const errorAnswer = (status: number, message?: string, retryAfter?: number): WireAnswer => ({
  status,
  headers: {
    "content-type": "application/json; charset=UTF-8",
    ...(retryAfter === undefined ? {} : { "retry-after": String(retryAfter) })
  },
  pieces: [JSON.stringify({
    error: {
      code: status,
      message: message ?? MESSAGES[status] ?? "Request contains an invalid argument.",
      status: STATUS_NAMES[status] ?? "UNKNOWN"
    }
  })]
})

const usageMetadata = (usage: ScriptUsage | undefined) => {
  const input = usage?.input ?? 10
  const reasoning = usage?.reasoning ?? 0
  const candidates = (usage?.output ?? 5) - reasoning
  return {
    promptTokenCount: input,
    candidatesTokenCount: candidates,
    totalTokenCount: input + candidates + reasoning,
    ...(usage?.cached === undefined ? {} : { cachedContentTokenCount: usage.cached }),
    ...(reasoning === 0 ? {} : { thoughtsTokenCount: reasoning }),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: input }]
  }
}

const callPart = (call: Extract<ScriptedAnswer, { type: "tool-calls" }>["calls"][number]) => ({
  functionCall: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, args: call.arguments },
  thoughtSignature: THOUGHT_SIGNATURE
})

const textOf = (script: ScriptedAnswer) => script.text ?? ""
const reasoningOf = (script: ScriptedAnswer) => script.reasoning ?? ""
const finishOf = (script: ScriptedAnswer) => script.type === "text" && script.length === true ? "MAX_TOKENS" : "STOP"

/** The whole answer's parts: thoughts, text, function calls. */
const partsOf = (script: ScriptedAnswer) => [
  ...(reasoningOf(script) === "" ? [] : [{ text: reasoningOf(script), thought: true }]),
  ...(textOf(script) === "" ? [] : [{ text: textOf(script) }]),
  ...(script.type === "tool-calls" ? script.calls.map(callPart) : [])
]

const envelope = (request: ScriptedRequest, responseId: string, candidate: object, usage?: object) => ({
  candidates: [{ ...candidate, index: 0 }],
  ...(usage === undefined ? {} : { usageMetadata: usage }),
  modelVersion: request.model,
  responseId
})

const sseEvent = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`

const streamEvents = (script: ScriptedAnswer, request: ScriptedRequest, responseId: string): Array<string> => {
  const usage = usageMetadata(script.usage)
  // Every event but the last reports the prompt's count only, as Gemini does.
  const running = { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount }
  const event = (parts: Array<object>) =>
    sseEvent(envelope(request, responseId, { content: { parts, role: "model" } }, running))
  const events = [
    ...words(reasoningOf(script)).map((piece) => event([{ text: piece, thought: true }])),
    ...words(textOf(script)).map((piece) => event([{ text: piece }]))
  ]
  // Function calls arrive whole, in the last event, with the finish reason and the usage.
  const calls = script.type === "tool-calls" ? script.calls.map(callPart) : []
  events.push(
    sseEvent(envelope(request, responseId, {
      content: { parts: calls.length === 0 ? [{ text: "" }] : calls, role: "model" },
      finishReason: finishOf(script)
    }, usage))
  )
  return events
}

export const geminiWire: Wire = {
  basePath: "/v1beta",
  authorized: (headers, apiKey) => headers["x-goog-api-key"] === apiKey,
  unauthorized: () => errorAnswer(400, "API key not valid. Please pass a valid API key."),
  chatRoute: (method, url) => {
    const match = ROUTE.exec(url.pathname)
    if (method !== "POST" || match === null) return undefined
    const streaming = match[2] === "streamGenerateContent"
    if (streaming && url.searchParams.get("alt") !== "sse") return undefined
    return { model: match[1]!, streaming }
  },
  answer: (script: Script, request, nextId) => {
    if (script.type === "error") return errorAnswer(script.status, script.message, script.retryAfter)
    if (script.type === "stream-error") {
      return {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        pieces: [
          sseEvent({ error: { code: script.status, message: script.message, status: STATUS_NAMES[script.status] } })
        ]
      }
    }
    const responseId = `resp-${nextId()}`
    if (request.streaming) {
      return {
        status: 200,
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
        pieces: streamEvents(script, request, responseId)
      }
    }
    return {
      status: 200,
      headers: { "content-type": "application/json; charset=UTF-8" },
      pieces: [JSON.stringify(envelope(request, responseId, {
        content: { parts: partsOf(script), role: "model" },
        finishReason: finishOf(script)
      }, usageMetadata(script.usage)))]
    }
  }
}

/** A scripted Gemini API on loopback; its `url` is the `baseURL` for `@ai-sdk/google`. */
export const startGemini = (apiKey: string): Promise<ScriptedUpstream> => startScripted(geminiWire, { apiKey })
