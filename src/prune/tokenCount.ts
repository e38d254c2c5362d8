import type { UIMessage } from "ai"
import { isWithinTokenLimit } from "gpt-tokenizer/encoding/o200k_base"

/**
 * Token counting for pruning, with the o200k_base encoding (GPT-4o and later;
 * other providers' tokenizers differ by a few percent, which the budget's
 * margin absorbs).
 *
 * What is counted is what the model is sent: the system prompt, text and
 * reasoning parts, tool names with their inputs and outputs as JSON, tool
 * error texts. Sources, data parts and step boundaries are not sent and cost
 * nothing.
 */

/** Framing of one message in chat formats (role and delimiters; OpenAI's is 3 to 4 tokens). */
export const MESSAGE_OVERHEAD = 4

/**
 * Files and images. Their real cost depends on the provider and the image
 * size (a 1024×1024 image is about 765 tokens at OpenAI's high detail); one
 * fixed figure keeps pruning predictable.
 */
export const FILE_TOKENS = 1000

// User text may contain `<|endoftext|>` and the like: it is text, not a special token.
const encodeOptions = { disallowedSpecial: new Set<string>() }

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

/** Tokens of `text`, or `false` as soon as they exceed `limit` (the rest is not tokenized). */
export const countTextWithin = (text: string, limit: number): number | false => {
  let total = 0
  for (let start = 0; start < text.length;) {
    const end = sliceEnd(text, start)
    const tokens = isWithinTokenLimit(text.slice(start, end), limit - total, encodeOptions)
    if (tokens === false) return false
    total += tokens
    start = end
  }
  return total
}

export const countText = (text: string): number => countTextWithin(text, Infinity) as number

const json = (value: unknown): string => JSON.stringify(value) ?? ""

type Piece = string | number

const pushToolCall = (
  part: { readonly input?: unknown; readonly output?: unknown; readonly errorText?: string | undefined },
  pieces: Array<Piece>
) => {
  if (part.input !== undefined) pieces.push(json(part.input))
  if (part.output !== undefined) pieces.push(json(part.output))
  if (part.errorText !== undefined) pieces.push(part.errorText)
}

/** What a message sends to the model: texts to tokenize and fixed token costs. */
const piecesOf = (parts: ReadonlyArray<UIMessage["parts"][number]>, pieces: Array<Piece>): Array<Piece> => {
  for (const part of parts) {
    switch (part.type) {
      case "text":
      case "reasoning":
        pieces.push(part.text)
        break
      case "file":
      case "reasoning-file":
        pieces.push(FILE_TOKENS)
        break
      case "steering-message":
        piecesOf(part.parts, pieces)
        break
      case "dynamic-tool":
        pieces.push(part.toolName)
        pushToolCall(part, pieces)
        break
      default:
        if (part.type.startsWith("tool-") && "toolCallId" in part) {
          pieces.push(part.type.slice("tool-".length))
          pushToolCall(part, pieces)
        }
    }
  }
  return pieces
}

const within = (pieces: ReadonlyArray<Piece>, limit: number): number | false => {
  let total = MESSAGE_OVERHEAD
  if (total > limit) return false
  for (const piece of pieces) {
    const tokens = typeof piece === "number" ? piece : countTextWithin(piece, limit - total)
    if (tokens === false || total + tokens > limit) return false
    total += tokens
  }
  return total
}

/** Tokens a message costs, or `false` once they exceed `limit`. */
export const countMessageWithin = (message: UIMessage, limit: number): number | false =>
  within(piecesOf(message.parts, []), limit)

export const countMessage = (message: UIMessage): number => countMessageWithin(message, Infinity) as number

/** The system prompt is sent as one system message; an empty one is not sent. */
export const countSystem = (system: string): number => system === "" ? 0 : MESSAGE_OVERHEAD + countText(system)

/**
 * A cheap estimate (4 characters per token) for messages that pruning drops
 * without tokenizing them; used only to report the size before pruning.
 */
export const estimateMessage = (message: UIMessage): number =>
  piecesOf(message.parts, []).reduce<number>(
    (total, piece) => total + (typeof piece === "number" ? piece : Math.ceil(piece.length / 4)),
    MESSAGE_OVERHEAD
  )
