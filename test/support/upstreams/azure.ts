import { chatCompletionsWire } from "./chatCompletions.ts"
import { type ScriptedUpstream, startScripted, type Wire } from "./scripted.ts"

/**
 * Azure OpenAI's v1 API, Chat Completions (`POST /openai/v1/chat/completions`,
 * the deployment as the body's `model`, the key in `api-key`), as
 * `@ai-sdk/azure`'s `chat` model reads it: OpenAI's shapes (usage in a chunk
 * of its own after the finish reason, as `stream_options.include_usage` asks;
 * a tool-call answer opening with `content: null`, its
 * arguments streamed in pieces; cached and reasoning tokens in the
 * usage details; no thinking text) and Azure's error bodies, whose `code` is
 * the status as a string for rate limits and keys.
 */
const chatWire = chatCompletionsWire({
  basePath: "/openai/v1",
  errorBody: (status, message) => ({
    error: status === 429 || status === 401
      ? { code: String(status), message }
      : { message, type: "invalid_request_error", param: null, code: null }
  }),
  usage: (usage) => ({
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0
    }
  }),
  streamUsage: "after",
  reasoningDelta: () => ({}),
  reasoningMessage: () => ({}),
  toolCallId: (n) => `call_${n.padStart(24, "0")}`,
  toolCallDeltas: "pieces",
  streamError: (status, message) => ({
    error: { message, type: status === 503 ? "server_error" : "invalid_request_error", param: null, code: null }
  }),
  nullContentBeforeCalls: true,
  extra: { system_fingerprint: "fp_parley_test" }
})

export const azureWire: Wire = {
  ...chatWire,
  authorized: (headers, apiKey) => headers["api-key"] === apiKey && headers.authorization === undefined
}

/** A scripted Azure OpenAI resource on loopback; its `url` is the `baseURL` for `@ai-sdk/azure`. */
export const startAzure = (apiKey: string): Promise<ScriptedUpstream> => startScripted(azureWire, { apiKey })
