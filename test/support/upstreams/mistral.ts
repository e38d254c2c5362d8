import { chatCompletionsWire } from "./chatCompletions.ts"
import { type ScriptedUpstream, startScripted } from "./scripted.ts"

/**
 * Mistral's chat API (`POST /v1/chat/completions`, `Authorization: Bearer`),
 * as `@ai-sdk/mistral` reads it: usage (with `num_cached_tokens`) in the last
 * chunk beside the finish reason, each tool call whole in one delta with a
 * nine-character id, thinking as `{type:"thinking"}` content chunks, and its
 * `{object:"error", message, type, param, code}` bodies.
 */
export const mistralWire = chatCompletionsWire({
  basePath: "/v1",
  errorBody: (status, message) => ({
    object: "error",
    message,
    type: status === 429 ? "rate_limited" : status === 401 ? "unauthorized" : "invalid_request_error",
    param: null,
    code: String(status === 429 ? 1300 : status === 401 ? 1000 : 3000)
  }),
  usage: (usage) => ({
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    ...(usage.cached === 0 ? {} : { num_cached_tokens: usage.cached })
  }),
  streamUsage: "finish",
  reasoningDelta: (piece) => ({ content: [{ type: "thinking", thinking: [{ type: "text", text: piece }] }] }),
  reasoningMessage: (reasoning, text) => ({
    content: [{ type: "thinking", thinking: [{ type: "text", text: reasoning }] }, { type: "text", text }]
  }),
  toolCallId: (n) => `tc${n.padStart(7, "0")}`,
  toolCallDeltas: "whole"
})

/** A scripted Mistral API on loopback; its `url` is the `baseURL` for `@ai-sdk/mistral`. */
export const startMistral = (apiKey: string): Promise<ScriptedUpstream> => startScripted(mistralWire, { apiKey })
