import type { UIMessage } from "ai"
import { placeholderFor, replaceMedia } from "./media.ts"
import { isToolPart } from "./tokenCount.ts"

/**
 * The stages of pruning, cheapest loss first; each applies to the messages
 * older than the preserved tail and includes the ones before it.
 *
 * - `images`: images and files in tool outputs become a short placeholder
 *   (old screenshots are what computer-use sessions pile up).
 * - `tool-outputs`: tool outputs and error texts longer than
 *   LONG_OUTPUT_CHARS keep their first HEAD_CHARS and last TAIL_CHARS.
 * - `messages`: the oldest messages are dropped.
 *
 * `none`: the input fit as it was.
 */
export type PruneStage = "none" | "images" | "tool-outputs" | "messages"

/** About 2,000 tokens of prose. */
export const LONG_OUTPUT_CHARS = 8_000
export const HEAD_CHARS = 2_000
export const TAIL_CHARS = 1_000

type Part = UIMessage["parts"][number]

/** `message` with `change` applied to its parts; `message` itself when no part changed. */
const mapParts = (message: UIMessage, change: (part: Part) => Part): UIMessage => {
  let parts: Array<Part> | undefined
  message.parts.forEach((part, index) => {
    const changed = change(part)
    if (changed !== part) (parts ??= message.parts.slice())[index] = changed
  })
  return parts === undefined ? message : { ...message, parts }
}

/** Stages run on the same messages in several passes and on every request of a conversation. */
const memoized = (transform: (message: UIMessage) => UIMessage) => {
  const done = new WeakMap<UIMessage, UIMessage>()
  return (message: UIMessage): UIMessage => {
    let result = done.get(message)
    if (result === undefined) {
      result = transform(message)
      done.set(message, result)
      done.set(result, result)
    }
    return result
  }
}

const imagesReplaced = (part: Part): Part => {
  if (!isToolPart(part) || part.state !== "output-available") return part
  const output = replaceMedia(part.output, placeholderFor)
  return output === part.output ? part : { ...part, output } as Part
}

/** Stage `images`: a message whose tool outputs hold no image or file. */
export const withoutImages = memoized((message) => mapParts(message, imagesReplaced))

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** The head and tail of a long text, with how much was left out between them. */
export const shorten = (text: string): string => {
  if (text.length <= LONG_OUTPUT_CHARS) return text
  let head = HEAD_CHARS
  if (isLowSurrogate(text.charCodeAt(head))) head--
  let tail = text.length - TAIL_CHARS
  if (isLowSurrogate(text.charCodeAt(tail))) tail++
  return `${text.slice(0, head)}\n[… ${tail - head} characters omitted by pruning …]\n${text.slice(tail)}`
}

const outputsShortened = (part: Part): Part => {
  if (!isToolPart(part)) return part
  if (part.state === "output-error" && part.errorText !== undefined) {
    const errorText = shorten(part.errorText)
    return errorText === part.errorText ? part : { ...part, errorText } as Part
  }
  if (part.state !== "output-available") return part
  // What the model is sent: a string as is, anything else as JSON; shortened, it is a string.
  const sent = typeof part.output === "string" ? part.output : JSON.stringify(part.output) ?? ""
  return sent.length <= LONG_OUTPUT_CHARS ? part : { ...part, output: shorten(sent) } as Part
}

/** Stage `tool-outputs`: `withoutImages`, and long tool outputs cut to head and tail. */
export const withShortOutputs = memoized((message) => mapParts(withoutImages(message), outputsShortened))
