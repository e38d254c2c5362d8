import { Schema } from "effect"

/**
 * The tokenizer a model's input is counted with: OpenAI's public encodings,
 * or an approximation for models whose tokenizer is not public. Kept apart
 * from the encoders so that reading the configuration does not load them.
 */
export const TokenizerName = Schema.Literals(["o200k_base", "cl100k_base", "approximate"]).annotate({
  description:
    "How pruning counts this model's tokens: o200k_base (GPT-4o and later), cl100k_base (GPT-4, GPT-3.5), approximate (others). Derived from the model id when absent."
})
export type TokenizerName = typeof TokenizerName.Type

const o200kModels =
  /^(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|gpt-realtime|gpt-audio|o[1-9](?:-|$)|codex|computer-use)/
const cl100kModels = /^(?:gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada)/

/**
 * The tokenizer of a catalog entry: the configured one, else the model id's
 * last segment decides (`openrouter/openai/gpt-4o` is a GPT-4o). Models that
 * are not OpenAI's get the approximation.
 */
export const tokenizerOf = (
  model: { readonly id: string; readonly tokenizer?: TokenizerName | undefined }
): TokenizerName => {
  if (model.tokenizer !== undefined) return model.tokenizer
  const name = model.id.slice(model.id.lastIndexOf("/") + 1).toLowerCase()
  return o200kModels.test(name) ? "o200k_base" : cl100kModels.test(name) ? "cl100k_base" : "approximate"
}
