import type { ModelMessage, ToolResultPart } from "ai"
import type { TokenizerName } from "../domain/TokenizerName.ts"
import { isMedia, splitMedia } from "./media.ts"
import { type Tokenizer, tokenizerNamed } from "./Tokenizer.ts"

/**
 * What a model is sent, in tokens, counted over AI SDK model messages. Texts
 * are tokenized with the model's tokenizer: the system prompt, text and
 * reasoning parts, tool names with their inputs as JSON, tool outputs as sent
 * (a string as is, anything else as JSON, a content output's texts), error
 * texts, and the tool definitions. The framing the provider adds around them
 * is a fixed cost per item, below; so are images and files, whose real cost
 * depends on the provider and the picture's size. Approval requests and
 * answers are not sent as such and cost nothing.
 *
 * The constants keep the counts of the UI-message era, when a tool part held
 * a call and its result and cost 8 besides its texts (the call's wrapper and
 * the framing of the message carrying the result): the call now costs 4 and
 * its result 4, the framing of a result message. A tool message is framed per
 * result, not as a whole, as OpenAI sends each result as a message of its
 * own; so a step that calls tools costs what it did, parallel calls
 * included. Only a call without a result costs less (4).
 */

/** Framing of one message (role and delimiters; OpenAI's is 3 to 4 tokens). */
export const MESSAGE_TOKENS = 4

/** A tool call's id and wrapper. */
export const TOOL_CALL_TOKENS = 4

/** A tool result's id and framing: a tool message costs this per result in place of MESSAGE_TOKENS. */
export const TOOL_RESULT_TOKENS = MESSAGE_TOKENS

/**
 * An image or file, in a message or in a tool output. A 1024×1024 image is
 * 765 tokens at OpenAI's high detail; Claude charges width×height/750, about
 * 1,600 for the largest image it accepts. 1,500 errs high.
 */
export const MEDIA_TOKENS = 1_500

/** The wrapper of one tool definition (type, name and parameter keys). */
export const TOOL_DEFINITION_TOKENS = 8

/** A tool as the model is offered it (the AI SDK's function tool). */
export interface ToolDefinition {
  readonly name: string
  readonly description?: string | undefined
  readonly inputSchema: unknown
}

type Part = Exclude<ModelMessage["content"], string>[number]
export type ToolOutput = ToolResultPart["output"]

const json = (value: unknown): string => JSON.stringify(value) ?? ""

/** Counts for one tokenizer. Counts are cached per part and per tool definition. */
export interface Counter {
  readonly tokenizer: Tokenizer
  /** Tokens a message costs, or `false` once they exceed `limit`. */
  readonly messageWithin: (message: ModelMessage, limit: number) => number | false
  readonly message: (message: ModelMessage) => number
  /** The system prompt is sent as one system message; an empty one is not sent. */
  readonly system: (system: string) => number
  readonly tools: (tools: ReadonlyArray<ToolDefinition>) => number
  /** The whole input: system prompt, tool definitions and messages. */
  readonly input: (
    system: string,
    tools: ReadonlyArray<ToolDefinition>,
    messages: ReadonlyArray<ModelMessage>
  ) => number
}

const makeCounter = (tokenizer: Tokenizer): Counter => {
  // An exact count `n` is stored as `n`; "more than `limit`" as `-(limit + 1)`.
  const counts = new WeakMap<object, number>()
  const text = (value: string, limit: number) => value.length === 0 ? 0 : tokenizer.count(value, limit)

  const cached = (key: object, limit: number, compute: (limit: number) => number | false): number | false => {
    const known = counts.get(key)
    if (known !== undefined) {
      if (known >= 0) return known <= limit ? known : false
      if (-known - 1 >= limit) return false
    }
    const tokens = compute(limit)
    counts.set(key, tokens === false ? -(limit + 1) : tokens)
    return tokens
  }

  /** Adds fixed costs and texts to `total`, stopping at `limit`. */
  const sum = (limit: number, total: number, texts: ReadonlyArray<string>): number | false => {
    if (total > limit) return false
    for (const value of texts) {
      const tokens = text(value, limit - total)
      if (tokens === false) return false
      total += tokens
    }
    return total
  }

  /** A raw value (or a string) as sent: its media at a fixed cost, the rest as JSON (a string as is). */
  const valueCost = (value: unknown, limit: number): number | false => {
    const { media, rest } = splitMedia(value)
    const sent = rest === undefined ? "" : typeof rest === "string" ? rest : json(rest)
    return sum(limit, media * MEDIA_TOKENS, [sent])
  }

  const outputCost = (output: ToolOutput, limit: number): number | false => {
    switch (output.type) {
      case "text":
      case "json":
        return valueCost(output.value, limit)
      case "error-text":
        return text(output.value, limit)
      case "error-json":
        return text(json(output.value), limit)
      case "execution-denied":
        return text(output.reason ?? "", limit)
      case "content": {
        let total = 0
        for (const item of output.value) {
          const tokens = item.type === "text" ? text(item.text, limit - total) : isMedia(item) ? MEDIA_TOKENS : 0
          if (tokens === false || (total += tokens) > limit) return false
        }
        return total
      }
    }
  }

  const partCost = (part: Part, limit: number): number | false => {
    switch (part.type) {
      case "text":
      case "reasoning":
        return text(part.text, limit)
      case "image":
      case "file":
      case "reasoning-file":
        return MEDIA_TOKENS <= limit ? MEDIA_TOKENS : false
      case "tool-call":
        return sum(limit, TOOL_CALL_TOKENS, [part.toolName, json(part.input)])
      case "tool-result": {
        const output = outputCost(part.output, limit - TOOL_RESULT_TOKENS)
        return output === false ? false : TOOL_RESULT_TOKENS + output
      }
      default:
        return 0
    }
  }

  const messageWithin = (message: ModelMessage, limit: number): number | false => {
    const content = message.content
    if (typeof content === "string") {
      return cached(message, limit, (left) => sum(left, MESSAGE_TOKENS, [content]))
    }
    let total = message.role === "tool" ? 0 : MESSAGE_TOKENS
    for (const part of content) {
      if (total > limit) return false
      const tokens = cached(part, limit - total, (left) => partCost(part, left))
      if (tokens === false) return false
      total += tokens
    }
    return total <= limit ? total : false
  }

  const message = (value: ModelMessage) => messageWithin(value, Infinity) as number
  const system = (value: string) => value === "" ? 0 : MESSAGE_TOKENS + (text(value, Infinity) as number)
  const tools = (definitions: ReadonlyArray<ToolDefinition>) =>
    definitions.reduce(
      (total, tool) =>
        total + (cached(tool, Infinity, () =>
          sum(Infinity, TOOL_DEFINITION_TOKENS, [
            tool.name,
            tool.description ?? "",
            json(tool.inputSchema)
          ])) as number),
      0
    )

  return {
    tokenizer,
    messageWithin,
    message,
    system,
    tools,
    input: (prompt, definitions, messages) =>
      messages.reduce((total, item) => total + message(item), system(prompt) + tools(definitions))
  }
}

const counters = new Map<TokenizerName, Counter>()

/** The counter of a tokenizer; one per process, so its caches serve every request. */
export const counterFor = (name: TokenizerName): Counter => {
  let counter = counters.get(name)
  if (counter === undefined) {
    counter = makeCounter(tokenizerNamed(name))
    counters.set(name, counter)
  }
  return counter
}
