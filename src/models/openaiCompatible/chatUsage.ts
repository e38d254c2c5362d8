import type { LanguageModelV4Usage } from "@ai-sdk/provider"
import type { ChunkUsage } from "./chunkShape.ts"

const count = (value: number | null | undefined): number | undefined => value ?? undefined

/**
 * A Chat Completions `usage` as the model's usage: the AI SDK's
 * `convertOpenAICompatibleChatUsage`, except that a count the provider did
 * not send stays undefined where the SDK says 0 (docs/DESIGN.md §3.17):
 * many servers (Ollama, vLLM, llama.cpp) send no cached or reasoning counts.
 */
export const chatUsage = (usage: ChunkUsage | null | undefined): LanguageModelV4Usage => {
  const input = count(usage?.prompt_tokens)
  const output = count(usage?.completion_tokens)
  const cacheRead = count(usage?.prompt_tokens_details?.cached_tokens)
  const reasoning = count(usage?.completion_tokens_details?.reasoning_tokens)
  return {
    inputTokens: {
      total: input,
      noCache: input === undefined ? undefined : input - (cacheRead ?? 0),
      cacheRead,
      cacheWrite: undefined
    },
    outputTokens: {
      total: output,
      text: output === undefined ? undefined : Math.max(0, output - (reasoning ?? 0)),
      reasoning
    },
    ...(usage == null ? {} : { raw: usage as NonNullable<LanguageModelV4Usage["raw"]> })
  }
}
