import type { AssistantContent, FilePart, ModelMessage, TextPart, ToolCallPart, ToolResultPart } from "ai"
import { parleyToolName } from "../hostedTools.ts"
import { orIssues, parsedUrl, Refused } from "../refused.ts"
import type { ContentBlock, ImageBlock, Message, MessagesRequest, ToolResultBlock } from "./request.ts"

type AssistantPart = Exclude<AssistantContent, string>[number]

/** The conversation as the core takes it: `system` and the leading system messages as the system prompt. */
export interface Conversation {
  readonly system: string | undefined
  readonly messages: ReadonlyArray<ModelMessage>
  /** The index in the body's `messages` of each model message's message: errors name the client's own places. */
  readonly origins: ReadonlyArray<number>
  /** Per model message, the body's place of each content part (`messages[1].content[2]`; a result's, its block's). */
  readonly places: ReadonlyArray<ReadonlyArray<string>>
}

/** A call of an assistant message and, once a block answers it, its result and that block's place. */
interface Call {
  readonly part: ToolCallPart
  answer?: { readonly output: ToolResultPart["output"]; readonly place: string }
}

const fileAt = (url: string, mediaType: string): FilePart => ({
  type: "file",
  mediaType,
  data: { type: "url", url: new URL(url) }
})

// An image as the model's file part, base64 data as a data URL.
const imagePart = (block: ImageBlock, place: string): FilePart => {
  const { source } = block
  if (source.type === "base64") return fileAt(`data:${source.media_type};base64,${source.data}`, source.media_type)
  return fileAt(parsedUrl(source.url, `${place}.source.url`, "send an http(s) URL or the image as base64"), "image/*")
}

const blocksOf = (content: Message["content"]): ReadonlyArray<ContentBlock> =>
  typeof content === "string" ? (content === "" ? [] : [{ type: "text", text: content }]) : content

const textOf = (content: Message["content"] | ToolResultBlock["content"]): string =>
  typeof content === "string"
    ? content
    : (content ?? []).map((block) => ("text" in block && typeof block.text === "string" ? block.text : "")).join("")

const systemOf = (system: MessagesRequest["system"]): string | undefined =>
  system === undefined
    ? undefined
    : typeof system === "string"
    ? system
    : system.map((block) => block.text).join("\n\n")

// A signature goes back to the provider that made it (Anthropic's reads it from the reasoning part's options).
const thinkingPart = (block: ContentBlock): AssistantPart | undefined => {
  if (block.type === "thinking" && "thinking" in block) {
    return {
      type: "reasoning",
      text: block.thinking,
      ...(block.signature === undefined ? {} : { providerOptions: { anthropic: { signature: block.signature } } })
    }
  }
  if (block.type === "redacted_thinking" && "data" in block) {
    return { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: block.data } } }
  }
  return undefined
}

// A result's text as the call's output: `is_error`, an error output.
const outcome = (
  block: { readonly is_error?: boolean; readonly content?: ToolResultBlock["content"] }
): ToolResultPart["output"] => {
  const value = textOf(block.content)
  return block.is_error === true ? { type: "error-text", value } : { type: "text", value }
}

const refuse = (at: string, block: ContentBlock, role: string): never => {
  throw new Refused(`"${at}" is a ${block.type} block, which parley does not take in a ${role} message`)
}

/**
 * Anthropic's messages as the model's (docs/DESIGN.md §14): an assistant
 * message's `tool_use` blocks are the model's assistant message and a tool
 * message of the results of the next user message's `tool_result` blocks,
 * as Anthropic requires (every use answered right after, every result a
 * use's); that message's other blocks, and the images of its results, stay
 * a user message. A list of issues when the conversation breaks a rule.
 */
export const toConversation = (
  system: MessagesRequest["system"],
  messages: ReadonlyArray<Message>
): Conversation | ReadonlyArray<string> => orIssues(() => convert(system, messages))

// An assistant message's tool message waits for its results, which later messages carry: the messages are made last.
type Made = { readonly index: number; readonly message: ModelMessage; readonly places: ReadonlyArray<string> }
type Entry = Made | { readonly index: number; readonly calls: ReadonlyArray<Call> }

const convert = (top: MessagesRequest["system"], messages: ReadonlyArray<Message>): Conversation => {
  const system: Array<string> = []
  const first = systemOf(top)
  if (first !== undefined && first !== "") system.push(first)
  const entries: Array<Entry> = []
  // The results the last assistant message waits for, by tool_use id.
  let waiting = new Map<string, Call>()
  let leading = true
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!
    const at = `messages[${index}]`
    const blocks = blocksOf(message.content)
    if (waiting.size > 0 && message.role !== "user") {
      throw new Refused(
        `"messages[${
          index - 1
        }]" has tool_use blocks that the next message, a user one, must answer with tool_result blocks`
      )
    }
    if (message.role === "system") {
      if (leading) system.push(textOf(message.content))
      else entries.push({ index, message: { role: "system", content: textOf(message.content) }, places: [] })
      continue
    }
    leading = false
    const parts: Array<TextPart | FilePart | AssistantPart> = []
    const where: Array<string> = []
    const add = (part: TextPart | FilePart | AssistantPart, place: string) => {
      parts.push(part)
      where.push(place)
    }
    const calls: Array<Call> = []
    const next = new Map<string, Call>()
    // The hosted MCP calls parley ran (`mcp_tool_use`), answered in the same message by `mcp_tool_result`.
    const hosted = new Map<string, Call>()
    blocks.forEach((block, b) => {
      const place = `${at}.content[${b}]`
      if (block.type === "text" && "text" in block) return add({ type: "text", text: block.text }, place)
      if (message.role === "user") {
        if (block.type === "image" && "source" in block) {
          return add(imagePart(block, place), place)
        }
        if (block.type === "tool_result" && "tool_use_id" in block) {
          const call = waiting.get(block.tool_use_id)
          if (call === undefined) {
            throw new Refused(
              `"${place}" answers tool_use "${block.tool_use_id}", which the assistant message before it did not make`
            )
          }
          waiting.delete(block.tool_use_id)
          call.answer = { output: outcome(block), place }
          if (typeof block.content !== "string") {
            block.content?.forEach((inner, i) => {
              const innerPlace = `${place}.content[${i}]`
              if (inner.type === "image") add(imagePart(inner, innerPlace), innerPlace)
            })
          }
          return
        }
        return refuse(place, block, "user")
      }
      const thinking = thinkingPart(block)
      if (thinking !== undefined) return add(thinking, place)
      if ((block.type === "tool_use" || block.type === "mcp_tool_use") && "input" in block) {
        const call: Call = {
          part: {
            type: "tool-call",
            toolCallId: block.id,
            toolName: "server_name" in block ? parleyToolName(block.server_name, block.name) : block.name,
            input: block.input ?? {}
          }
        }
        calls.push(call)
        ;(block.type === "tool_use" ? next : hosted).set(block.id, call)
        return add(call.part, place)
      }
      if (block.type === "mcp_tool_result" && "tool_use_id" in block) {
        const call = hosted.get(block.tool_use_id)
        if (call === undefined) {
          throw new Refused(
            `"${place}" answers mcp_tool_use "${block.tool_use_id}", which this message did not make before it`
          )
        }
        hosted.delete(block.tool_use_id)
        call.answer = { output: outcome(block), place }
        return
      }
      return refuse(place, block, "assistant")
    })
    if (hosted.size > 0) {
      const [id] = hosted.keys()
      throw new Refused(`"${at}" has an mcp_tool_use (id "${id}") without its mcp_tool_result after it`)
    }
    if (waiting.size > 0) {
      const [id] = waiting.keys()
      throw new Refused(`"messages[${index - 1}]" has a tool_use (id "${id}") without a tool_result in "${at}"`)
    }
    waiting = next
    if (message.role === "assistant") {
      // As the AI SDK leaves them: an assistant message with nothing to say is not sent.
      if (parts.length > 0) {
        entries.push({ index, message: { role: "assistant", content: parts as Array<AssistantPart> }, places: where })
      }
      if (calls.length > 0) entries.push({ index, calls })
    } else if (parts.length > 0 || blocks.length === 0) {
      // A user message of nothing but tool results has said all it had to say in the tool message before it.
      entries.push({ index, message: { role: "user", content: parts as Array<TextPart | FilePart> }, places: where })
    }
  }
  if (waiting.size > 0) {
    const [id] = waiting.keys()
    throw new Refused(
      `"messages[${
        messages.length - 1
      }]" has a tool_use (id "${id}") that no tool_result answers: send the result in a user message after it`
    )
  }
  const made = entries.flatMap((entry) => "message" in entry ? [entry] : toolMessage(entry.index, entry.calls))
  return {
    system: system.length === 0 ? undefined : system.join("\n\n"),
    messages: made.map((entry) => entry.message),
    origins: made.map((entry) => entry.index),
    places: made.map((entry) => entry.places)
  }
}

// The answered calls' results in the order of the calls (a call whose id a later one of the message took has none).
const toolMessage = (index: number, calls: ReadonlyArray<Call>): ReadonlyArray<Made> => {
  const answered = calls.flatMap(({ answer, part }) => answer === undefined ? [] : [{ answer, part }])
  if (answered.length === 0) return []
  const content = answered.map(({ answer, part }): ToolResultPart => ({
    type: "tool-result",
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output: answer.output
  }))
  return [{ index, message: { role: "tool", content }, places: answered.map(({ answer }) => answer.place) }]
}
