import { chatCompletionsWire } from "./chatCompletions.ts"
import { type ScriptedUpstream, startScripted } from "./scripted.ts"

/**
 * Groq's OpenAI-compatible API (`POST /openai/v1/chat/completions`,
 * `Authorization: Bearer`), as `@ai-sdk/groq` reads it: a stream's usage
 * under the last chunk's `x_groq` (not a usage chunk), tool calls whole in
 * one delta, thinking in `reasoning` (the parsed reasoning format), cached
 * and reasoning tokens in the usage details, `{error:{message,type,code}}` bodies.
 */
export const groqWire = chatCompletionsWire({
  basePath: "/openai/v1",
  errorBody: (status, message) => ({
    error: {
      message,
      type: status === 429 ? "tokens" : "invalid_request_error",
      code: status === 429 ? "rate_limit_exceeded" : status === 401 ? "invalid_api_key" : "invalid_request"
    }
  }),
  usage: (usage) => ({
    queue_time: 0.02,
    prompt_tokens: usage.input,
    prompt_time: 0.004,
    completion_tokens: usage.output,
    completion_time: 0.05,
    total_tokens: usage.input + usage.output,
    total_time: 0.054,
    ...(usage.cached === 0 ? {} : { prompt_tokens_details: { cached_tokens: usage.cached } }),
    ...(usage.reasoning === 0 ? {} : { completion_tokens_details: { reasoning_tokens: usage.reasoning } })
  }),
  streamUsage: "x_groq",
  reasoningDelta: (piece) => ({ reasoning: piece }),
  reasoningMessage: (reasoning) => ({ reasoning }),
  toolCallId: (n) => `call_${n.padStart(8, "0")}`,
  toolCallDeltas: "whole",
  streamError: (status, message) => ({
    error: {
      message,
      type: status === 429 ? "rate_limit_error" : status === 503 ? "service_unavailable" : "invalid_request_error"
    }
  }),
  extra: { system_fingerprint: "fp_parley_test" }
})

/** A scripted Groq API on loopback; its `url` is the `baseURL` for `@ai-sdk/groq`. */
export const startGroq = (apiKey: string): Promise<ScriptedUpstream> => startScripted(groqWire, { apiKey })
