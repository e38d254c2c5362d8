import type { ModelConfig, ProviderType, VendorProviderType } from "./ProviderConfig.ts"

/**
 * Models offered when a provider is configured without a `models` list (the
 * key-variable shortcuts such as `OPENAI_API_KEY`, or a file entry of a type
 * other than `openai-compatible` that leaves `models` out). Windows are the
 * vendors' published limits. Hand-written until a maintained catalog package
 * replaces these tables (issue 22, part 2; docs/DESIGN.md §15).
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

// Gemini API model ids, as `@ai-sdk/google` names them.
const google: ReadonlyArray<ModelConfig> = [
  {
    id: "gemini-2.5-pro",
    name: "Gemini 2.5 Pro",
    categories: ["chat", "reasoning"],
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536
  },
  {
    id: "gemini-2.5-flash",
    name: "Gemini 2.5 Flash",
    categories: ["chat", "reasoning"],
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536
  },
  {
    id: "gemini-2.5-flash-lite",
    name: "Gemini 2.5 Flash-Lite",
    categories: ["chat"],
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536
  }
]

// Mistral's `-latest` aliases, as `@ai-sdk/mistral` names them; Mistral publishes no output limits.
const mistral: ReadonlyArray<ModelConfig> = [
  { id: "mistral-large-latest", name: "Mistral Large", categories: ["chat"], contextWindow: 256_000 },
  { id: "mistral-medium-latest", name: "Mistral Medium", categories: ["chat"], contextWindow: 128_000 },
  { id: "mistral-small-latest", name: "Mistral Small", categories: ["chat"], contextWindow: 128_000 },
  {
    id: "magistral-medium-latest",
    name: "Magistral Medium",
    categories: ["chat", "reasoning"],
    contextWindow: 128_000
  },
  { id: "codestral-latest", name: "Codestral", categories: ["chat", "code"], contextWindow: 256_000 }
]

// GroqCloud's production models, as `@ai-sdk/groq` names them.
const groq: ReadonlyArray<ModelConfig> = [
  {
    id: "llama-3.3-70b-versatile",
    name: "Llama 3.3 70B Versatile",
    categories: ["chat"],
    contextWindow: 131_072,
    maxOutputTokens: 32_768
  },
  {
    id: "llama-3.1-8b-instant",
    name: "Llama 3.1 8B Instant",
    categories: ["chat"],
    contextWindow: 131_072,
    maxOutputTokens: 131_072
  },
  {
    id: "openai/gpt-oss-120b",
    name: "GPT-OSS 120B",
    categories: ["chat", "reasoning"],
    contextWindow: 131_072,
    maxOutputTokens: 65_536
  },
  {
    id: "openai/gpt-oss-20b",
    name: "GPT-OSS 20B",
    categories: ["chat", "reasoning"],
    contextWindow: 131_072,
    maxOutputTokens: 65_536
  }
]

// xAI's models, as `@ai-sdk/xai` names them; their windows are left to an entry's `models` (not published to us).
const xai: ReadonlyArray<ModelConfig> = [
  { id: "grok-4.20-reasoning", name: "Grok 4.20 (reasoning)", categories: ["chat", "reasoning"] },
  { id: "grok-4.20-non-reasoning", name: "Grok 4.20", categories: ["chat"] },
  { id: "grok-latest", name: "Grok (latest)", categories: ["chat", "reasoning"] }
]

// DeepSeek's two API model names; its newer models (`deepseek-v4-flash`…) go in an entry's `models`.
const deepseek: ReadonlyArray<ModelConfig> = [
  { id: "deepseek-chat", name: "DeepSeek Chat", categories: ["chat"], contextWindow: 128_000, maxOutputTokens: 8_192 },
  {
    id: "deepseek-reasoner",
    name: "DeepSeek Reasoner",
    categories: ["chat", "reasoning"],
    contextWindow: 128_000,
    maxOutputTokens: 65_536
  }
]

// None yet for `vertex` and `bedrock`: their entries list their models until the maintained catalog lands.
const catalogs: Readonly<Record<Exclude<VendorProviderType, "vertex" | "bedrock">, ReadonlyArray<ModelConfig>>> = {
  openai,
  anthropic,
  google,
  // Azure's model ids are deployment names, which Azure names after the model
  // unless told otherwise: an entry whose deployments are named otherwise lists them.
  azure: openai,
  mistral,
  groq,
  xai,
  deepseek
}

/** `undefined` for `openai-compatible` (such a server's models cannot be guessed), `vertex` and `bedrock`. */
export const builtinCatalog = (type: ProviderType): ReadonlyArray<ModelConfig> | undefined =>
  type === "openai-compatible" || type === "vertex" || type === "bedrock" ? undefined : catalogs[type]
