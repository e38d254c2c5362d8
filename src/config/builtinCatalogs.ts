import type { ModelConfig, ProviderType } from "./ProviderConfig.ts"

/**
 * Models offered when a provider is configured without a `models` list (the
 * `OPENAI_API_KEY` / `ANTHROPIC_API_KEY` shortcuts, or a file entry of type
 * `openai` / `anthropic` that leaves `models` out). Windows are the vendors'
 * published limits.
 */
const openai: ReadonlyArray<ModelConfig> = [
  { id: "gpt-5", name: "GPT-5", categories: ["chat", "reasoning"], contextWindow: 400_000, maxOutputTokens: 128_000 },
  {
    id: "gpt-5-mini",
    name: "GPT-5 mini",
    categories: ["chat", "reasoning"],
    contextWindow: 400_000,
    maxOutputTokens: 128_000
  },
  {
    id: "gpt-5-nano",
    name: "GPT-5 nano",
    categories: ["chat", "reasoning"],
    contextWindow: 400_000,
    maxOutputTokens: 128_000
  },
  { id: "gpt-4.1", name: "GPT-4.1", categories: ["chat"], contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  { id: "gpt-4.1-mini", name: "GPT-4.1 mini", categories: ["chat"], contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  { id: "gpt-4o-mini", name: "GPT-4o mini", categories: ["chat"], contextWindow: 128_000, maxOutputTokens: 16_384 }
]

const anthropic: ReadonlyArray<ModelConfig> = [
  {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    categories: ["chat", "reasoning"],
    contextWindow: 200_000,
    maxOutputTokens: 64_000
  },
  {
    id: "claude-haiku-4-5",
    name: "Claude Haiku 4.5",
    categories: ["chat", "reasoning"],
    contextWindow: 200_000,
    maxOutputTokens: 64_000
  },
  {
    id: "claude-opus-4-1",
    name: "Claude Opus 4.1",
    categories: ["chat", "reasoning"],
    contextWindow: 200_000,
    maxOutputTokens: 32_000
  }
]

/** `undefined` for `openai-compatible`: such a server's models cannot be guessed. */
export const builtinCatalog = (type: ProviderType): ReadonlyArray<ModelConfig> | undefined =>
  type === "openai" ? openai : type === "anthropic" ? anthropic : undefined
