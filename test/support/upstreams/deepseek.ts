import { chatCompletionsWire } from "./chatCompletions.ts"
import { type ScriptedUpstream, startScripted } from "./scripted.ts"

/**
 * DeepSeek's API (`POST /chat/completions` at the host's root,
 * `Authorization: Bearer`), as `@ai-sdk/deepseek` reads it: thinking in
 * `reasoning_content`, tool call arguments streamed in pieces, usage beside
 * the finish reason with its own cache fields (`prompt_cache_hit_tokens`,
 * `prompt_cache_miss_tokens`) and reasoning tokens, OpenAI-shaped error bodies.
 */
export const deepseekWire = chatCompletionsWire({
  basePath: "",
  errorBody: (status, message) => ({
    error: {
      message,
      type: status === 429 ? "rate_limit_error" : status === 401 ? "authentication_error" : "invalid_request_error",
      param: null,
      code: status === 429 ? "rate_limit_exceeded" : status === 401 ? "invalid_request_error" : "invalid_request_error"
    }
  }),
  usage: (usage) => ({
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cached },
    prompt_cache_hit_tokens: usage.cached,
    prompt_cache_miss_tokens: usage.input - usage.cached,
    ...(usage.reasoning === 0 ? {} : { completion_tokens_details: { reasoning_tokens: usage.reasoning } })
  }),
  streamUsage: "finish",
  reasoningDelta: (piece) => ({ content: null, reasoning_content: piece }),
  reasoningMessage: (reasoning) => ({ reasoning_content: reasoning }),
  toolCallId: (n) => `call_00_${n.padStart(24, "0")}`,
  toolCallDeltas: "pieces",
  extra: { system_fingerprint: "fp_parley_test_prod0820_fp8_kvcache" }
})

/** A scripted DeepSeek API on loopback; its `url` is the `baseURL` for `@ai-sdk/deepseek`. */
export const startDeepSeek = (apiKey: string): Promise<ScriptedUpstream> => startScripted(deepseekWire, { apiKey })
