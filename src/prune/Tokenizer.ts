import { createRequire } from "node:module"
import type { TokenizerName } from "../domain/TokenizerName.ts"

/** Counts the tokens of texts for one model family. */
export interface Tokenizer {
  readonly name: TokenizerName
  /** Tokens of `text`, or `false` once they exceed `limit` (the rest is not tokenized). */
  readonly count: (text: string, limit: number) => number | false
}

// User text may contain `<|endoftext|>` and the like: it is text, not a special token.
const encodeOptions = { disallowedSpecial: new Set<string>() }

type CountTokens = (text: string, options: typeof encodeOptions) => number

const require = createRequire(import.meta.url)

/**
 * An encoding's tables take 40–80 MiB of heap once loaded: each loads on its
 * first count, so a gateway that never prunes (or never meets an older
 * OpenAI model) never pays for it.
 */
const lazyCountTokens = (encoding: "o200k_base" | "cl100k_base"): CountTokens => {
  let count: CountTokens | undefined
  return (text, options) => {
    count ??= (require(`gpt-tokenizer/encoding/${encoding}`) as { countTokens: CountTokens }).countTokens
    return count(text, options)
  }
}

/**
 * gpt-tokenizer's byte-pair merge is quadratic in the length of one
 * pre-tokenized piece, and a run without spaces is one piece (100,000 letters
 * take seconds). Texts are therefore counted in slices of at most this many
 * characters, cut before a space so that ordinary text counts exactly; a long
 * run without spaces counts a token or so more per slice.
 */
const SLICE = 512

const sliceEnd = (text: string, start: number): number => {
  const hardEnd = start + SLICE
  if (hardEnd >= text.length) return text.length
  for (let cut = hardEnd; cut > start + SLICE / 2; cut--) {
    if (text.charCodeAt(cut) === 32 && text.charCodeAt(cut - 1) !== 32) return cut
  }
  const code = text.charCodeAt(hardEnd - 1)
  return code >= 0xd800 && code <= 0xdbff ? hardEnd - 1 : hardEnd
}

/** Counts slice by slice, `scale`d, stopping at the first slice that passes `limit`. */
const slicedCounter = (countTokens: CountTokens, scale: number) => (text: string, limit: number) => {
  let raw = 0
  for (let start = 0; start < text.length;) {
    const end = sliceEnd(text, start)
    raw += countTokens(text.slice(start, end), encodeOptions)
    if (Math.ceil(raw * scale) > limit) return false
    start = end
  }
  return Math.ceil(raw * scale)
}

/**
 * For models whose tokenizer is not public (Claude, Llama, Qwen, Mistral, …):
 * o200k_base counts scaled up by 30%. Published comparisons put Claude at
 * 16% (English) to 30% (code) more tokens than GPT-4o, and the open models'
 * 128k–150k vocabularies between cl100k_base and o200k_base; erring high
 * only prunes a little early.
 */
export const APPROXIMATION_FACTOR = 1.3

const o200k = lazyCountTokens("o200k_base")

const tokenizers: Record<TokenizerName, Tokenizer> = {
  o200k_base: { name: "o200k_base", count: slicedCounter(o200k, 1) },
  cl100k_base: { name: "cl100k_base", count: slicedCounter(lazyCountTokens("cl100k_base"), 1) },
  approximate: { name: "approximate", count: slicedCounter(o200k, APPROXIMATION_FACTOR) }
}

export const tokenizerNamed = (name: TokenizerName): Tokenizer => tokenizers[name]
