import type { UIMessage } from "ai"
import type { TokenizerName } from "../domain/TokenizerName.ts"
import { splitMedia } from "./media.ts"
import { type Tokenizer, tokenizerNamed } from "./Tokenizer.ts"

/**
 * What a model is sent, in tokens. Texts are tokenized with the model's
 * tokenizer: the system prompt, text and reasoning parts, tool names with
 * their inputs as JSON, tool outputs as sent (a string as is, anything else
 * as JSON), error texts, and the tool definitions. The framing the provider
 * adds around them is a fixed cost per item, below; so are images and files,
 * whose real cost depends on the provider and the picture's size. Sources,
 * data parts and step boundaries are not sent and cost nothing.
 */

/** Framing of one message (role and delimiters; OpenAI's is 3 to 4 tokens). */
export const MESSAGE_TOKENS = 4

/** A tool call's id and wrapper, and the framing of the message carrying its result. */
export const TOOL_CALL_TOKENS = 8

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

type Part = UIMessage["parts"][number]
type ToolPart = Part & {
  readonly toolCallId: string
  readonly state: string
  readonly input?: unknown
  readonly output?: unknown
  readonly errorText?: string | undefined
}

export const isToolPart = (part: Part): part is ToolPart =>
  (part.type === "dynamic-tool" || part.type.startsWith("tool-")) && "toolCallId" in part

const toolNameOf = (part: ToolPart): string =>
  part.type === "dynamic-tool" ? (part as { readonly toolName: string }).toolName : part.type.slice("tool-".length)

const json = (value: unknown): string => JSON.stringify(value) ?? ""

/** Parts that become content of a model message, opening a step when none is open. */
const sentTypes = new Set(["text", "reasoning", "file", "reasoning-file", "custom"])

/**
 * An assistant message is sent as one message per step (and steering
 * messages as their own user messages), anything else as one message.
 */
const framingOf = (message: UIMessage): number => {
  if (message.role !== "assistant") return MESSAGE_TOKENS
  let steps = 0
  let open = false
  for (const part of message.parts) {
    if (part.type === "step-start" || part.type === "steering-message") open = false
    else if (!open && (sentTypes.has(part.type) || isToolPart(part))) {
      steps++
      open = true
    }
  }
  return MESSAGE_TOKENS * Math.max(1, steps)
}

/** Counts for one tokenizer. Counts are cached per part and per tool definition. */
export interface Counter {
  readonly tokenizer: Tokenizer
  /** Tokens a message costs, or `false` once they exceed `limit`. */
  readonly messageWithin: (message: UIMessage, limit: number) => number | false
  readonly message: (message: UIMessage) => number
  /** The system prompt is sent as one system message; an empty one is not sent. */
  readonly system: (system: string) => number
  readonly tools: (tools: ReadonlyArray<ToolDefinition>) => number
  /** The whole input: system prompt, tool definitions and messages. */
  readonly input: (system: string, tools: ReadonlyArray<ToolDefinition>, messages: ReadonlyArray<UIMessage>) => number
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

  const outputCost = (output: unknown, limit: number): number | false => {
    const { media, rest } = splitMedia(output)
    const sent = rest === undefined ? "" : typeof rest === "string" ? rest : json(rest)
    return sum(limit, media * MEDIA_TOKENS, [sent])
  }

  const toolCost = (part: ToolPart, limit: number): number | false => {
    // A call still streaming its input is not sent.
    if (part.state === "input-streaming") return 0
    const call = sum(limit, TOOL_CALL_TOKENS, [toolNameOf(part), json(part.input)])
    if (call === false) return false
    if (part.state === "output-error") return sum(limit, call, [part.errorText ?? ""])
    if (part.state !== "output-available") return call
    const output = outputCost(part.output, limit - call)
    return output === false ? false : call + output
  }

  const partsCost = (parts: ReadonlyArray<Part>, limit: number, total: number): number | false => {
    for (const part of parts) {
      if (total > limit) return false
      const tokens = cached(part, limit - total, (left) => partCost(part, left))
      if (tokens === false) return false
      total += tokens
    }
    return total <= limit ? total : false
  }

  const partCost = (part: Part, limit: number): number | false => {
    switch (part.type) {
      case "text":
      case "reasoning":
        return text(part.text, limit)
      case "file":
      case "reasoning-file":
        return MEDIA_TOKENS <= limit ? MEDIA_TOKENS : false
      case "steering-message":
        return partsCost(part.parts, limit, MESSAGE_TOKENS)
      default:
        return isToolPart(part) ? toolCost(part, limit) : 0
    }
  }

  const messageWithin = (message: UIMessage, limit: number) => partsCost(message.parts, limit, framingOf(message))

  const message = (value: UIMessage) => messageWithin(value, Infinity) as number
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
