import type { UIMessage } from "ai"
import { parleyToolName } from "../hostedTools.ts"
import { orIssues, Refused } from "../refused.ts"
import type { ContentBlock, ImageBlock, Message, MessagesRequest, ToolResultBlock } from "./request.ts"

type Part = UIMessage["parts"][number]
type ToolPart = Part & { type: "dynamic-tool" }

/** The conversation as the core takes it: `system` and the leading system messages as the system prompt. */
export interface Conversation {
  readonly system: string | undefined
  readonly messages: ReadonlyArray<UIMessage>
  /** Where each of `messages` is in the body's `messages`: errors name the client's own places. */
  readonly origins: ReadonlyArray<number>
  /** Per message, the body's place of each of its parts (`messages[1].content[2]`). */
  readonly places: ReadonlyArray<ReadonlyArray<string>>
}

const imagePart = (block: ImageBlock): Part =>
  block.source.type === "base64"
    ? {
      type: "file",
      mediaType: block.source.media_type,
      url: `data:${block.source.media_type};base64,${block.source.data}`
    }
    : { type: "file", mediaType: "image/*", url: block.source.url }

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

// A signature goes back to the provider that made it (Anthropic's reads it from the reasoning part's metadata).
const thinkingPart = (block: ContentBlock): Part | undefined => {
  if (block.type === "thinking" && "thinking" in block) {
    return {
      type: "reasoning",
      text: block.thinking,
      ...(block.signature === undefined ? {} : { providerMetadata: { anthropic: { signature: block.signature } } })
    }
  }
  if (block.type === "redacted_thinking" && "data" in block) {
    return { type: "reasoning", text: "", providerMetadata: { anthropic: { redactedData: block.data } } }
  }
  return undefined
}

// A result's text as the tool part's output: `is_error`, an error output.
const outcome = (block: { readonly is_error?: boolean; readonly content?: ToolResultBlock["content"] }) => {
  const text = textOf(block.content)
  return block.is_error === true
    ? { state: "output-error", errorText: text }
    : { state: "output-available", output: text }
}

const refuse = (at: string, block: ContentBlock, role: string): never => {
  throw new Refused(`"${at}" is a ${block.type} block, which parley does not take in a ${role} message`)
}

/**
 * Anthropic's messages as UI messages (docs/DESIGN.md §14): an assistant's
 * `tool_use` blocks become tool parts holding the results of the next user
 * message's `tool_result` blocks, as Anthropic requires (every use answered
 * right after, every result a use's); that message's other blocks, and the
 * images of its results, stay a user message. A list of issues when the
 * conversation breaks a rule.
 */
export const toConversation = (
  system: MessagesRequest["system"],
  messages: ReadonlyArray<Message>
): Conversation | ReadonlyArray<string> => orIssues(() => convert(system, messages))

const convert = (top: MessagesRequest["system"], messages: ReadonlyArray<Message>): Conversation => {
  const system: Array<string> = []
  const first = systemOf(top)
  if (first !== undefined && first !== "") system.push(first)
  const out: Array<UIMessage> = []
  const origins: Array<number> = []
  const places: Array<Array<string>> = []
  // The results the last assistant message waits for, by tool_use id.
  let waiting = new Map<string, ToolPart>()
  let leading = true
  const push = (index: number, message: UIMessage, at: ReadonlyArray<string>) => {
    origins.push(index)
    places.push([...at])
    out.push(message)
  }
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
      else {push(index, { id: `m${index}`, role: "system", parts: [{ type: "text", text: textOf(message.content) }] }, [
          at
        ])}
      continue
    }
    leading = false
    const parts: Array<Part> = []
    const where: Array<string> = []
    const add = (part: Part, place: string) => {
      parts.push(part)
      where.push(place)
    }
    const next = new Map<string, ToolPart>()
    // The hosted MCP calls parley ran (`mcp_tool_use`), answered in the same message by `mcp_tool_result`.
    const hosted = new Map<string, ToolPart>()
    blocks.forEach((block, b) => {
      const place = `${at}.content[${b}]`
      if (block.type === "text" && "text" in block) return add({ type: "text", text: block.text }, place)
      if (message.role === "user") {
        if (block.type === "image" && "source" in block) return add(imagePart(block), place)
        if (block.type === "tool_result" && "tool_use_id" in block) {
          const call = waiting.get(block.tool_use_id)
          if (call === undefined) {
            throw new Refused(
              `"${place}" answers tool_use "${block.tool_use_id}", which the assistant message before it did not make`
            )
          }
          waiting.delete(block.tool_use_id)
          Object.assign(call, outcome(block))
          if (typeof block.content !== "string") {
            block.content?.forEach((inner, i) =>
              inner.type === "image" && add(imagePart(inner), `${place}.content[${i}]`)
            )
          }
          return
        }
        return refuse(place, block, "user")
      }
      const thinking = thinkingPart(block)
      if (thinking !== undefined) return add(thinking, place)
      if ((block.type === "tool_use" || block.type === "mcp_tool_use") && "input" in block) {
        const call = {
          type: "dynamic-tool" as const,
          toolName: "server_name" in block ? parleyToolName(block.server_name, block.name) : block.name,
          toolCallId: block.id,
          state: "input-available" as const,
          input: block.input ?? {}
        }
        ;(block.type === "tool_use" ? next : hosted).set(block.id, call as never)
        return add(call, place)
      }
      if (block.type === "mcp_tool_result" && "tool_use_id" in block) {
        const call = hosted.get(block.tool_use_id)
        if (call === undefined) {
          throw new Refused(
            `"${place}" answers mcp_tool_use "${block.tool_use_id}", which this message did not make before it`
          )
        }
        hosted.delete(block.tool_use_id)
        Object.assign(call, outcome(block))
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
    // A user message of nothing but tool results has said all it had to say in the assistant's tool parts.
    if (parts.length > 0 || message.role === "assistant" || blocks.length === 0) {
      push(index, { id: `m${index}`, role: message.role, parts }, where)
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
  return { system: system.length === 0 ? undefined : system.join("\n\n"), messages: out, origins, places }
}
