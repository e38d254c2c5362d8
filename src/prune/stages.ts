import type { ModelMessage } from "ai"
import { placeholderFor, replaceMedia } from "./media.ts"
import type { ToolOutput } from "./tokenCount.ts"

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

type Part = Exclude<ModelMessage["content"], string>[number]

/** `message` with `change` applied to its parts; `message` itself when no part changed. */
const mapParts = (message: ModelMessage, change: (part: Part) => Part): ModelMessage => {
  if (typeof message.content === "string") return message
  let parts: Array<Part> | undefined
  message.content.forEach((part, index) => {
    const changed = change(part)
    if (changed !== part) (parts ??= message.content.slice() as Array<Part>)[index] = changed
  })
  return parts === undefined ? message : { ...message, content: parts } as ModelMessage
}

/** Stages run on the same messages in several passes and on every request of a conversation. */
const memoized = (transform: (message: ModelMessage) => ModelMessage) => {
  const done = new WeakMap<ModelMessage, ModelMessage>()
  return (message: ModelMessage): ModelMessage => {
    let result = done.get(message)
    if (result === undefined) {
      result = transform(message)
      done.set(message, result)
      done.set(result, result)
    }
    return result
  }
}

/** A tool result with `change` applied to its output; other parts as they are. */
const onOutput = (change: (output: ToolOutput) => ToolOutput) => (part: Part): Part => {
  if (part.type !== "tool-result") return part
  const output = change(part.output)
  return output === part.output ? part : { ...part, output }
}

/**
 * Media become placeholders where they are: a raw value (`json`, or a `text`
 * that is a `data:` URL) keeps its shape, for the agent applies its tools'
 * `toModelOutput` after pruning; a `content` output's media items become
 * text items.
 */
const mediaReplaced = (output: ToolOutput): ToolOutput => {
  if (output.type !== "text" && output.type !== "json" && output.type !== "content") return output
  const value = replaceMedia(output.value, placeholderFor)
  return value === output.value ? output : { ...output, value } as ToolOutput
}

/** Stage `images`: a message whose tool outputs hold no image or file. */
export const withoutImages = memoized((message) => mapParts(message, onOutput(mediaReplaced)))

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

/** What the model is sent is what counts: a `json` output as JSON, which shortened is a text. */
const outputShortened = (output: ToolOutput): ToolOutput => {
  switch (output.type) {
    case "text":
    case "error-text": {
      const value = shorten(output.value)
      return value === output.value ? output : { ...output, value }
    }
    case "json":
    case "error-json": {
      const sent = JSON.stringify(output.value) ?? ""
      if (sent.length <= LONG_OUTPUT_CHARS) return output
      return { ...output, type: output.type === "json" ? "text" : "error-text", value: shorten(sent) }
    }
    default:
      return output
  }
}

/** Stage `tool-outputs`: `withoutImages`, and long tool outputs cut to head and tail. */
export const withShortOutputs = memoized((message) => mapParts(withoutImages(message), onOutput(outputShortened)))
