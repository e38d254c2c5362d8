import type { UIMessage } from "ai"
import { imagePart } from "../openai/imagePart.ts"
import { orIssues, Refused } from "../refused.ts"
import type { CompletionMessage, ContentPart, ToolCall } from "./request.ts"

type Part = UIMessage["parts"][number]

/** The conversation as the core takes it: the leading system and developer messages as the system prompt. */
export interface Conversation {
  readonly system: string | undefined
  readonly messages: ReadonlyArray<UIMessage>
  /** Where each of `messages` is in the body's `messages`: errors name the client's own places. */
  readonly origins: ReadonlyArray<number>
}

const textOf = (content: CompletionMessage["content"]): string =>
  typeof content === "string"
    ? content
    : (content ?? []).map((part) => part.text ?? part.refusal ?? "").join("")

const contentParts = (content: CompletionMessage["content"], at: string, images: boolean): Array<Part> => {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }]
  return (content ?? []).map((part: ContentPart, index): Part => {
    const where = `${at}.content[${index}]`
    if (part.type === "text" && part.text !== undefined) return { type: "text", text: part.text }
    if (part.type === "refusal" && part.refusal !== undefined) return { type: "text", text: part.refusal }
    if (part.type === "image_url" && part.image_url !== undefined && images) return imagePart(part.image_url.url)
    if (part.type === "input_audio" || part.type === "file") {
      throw new Refused(`"${where}" is a ${part.type} part, which parley does not take: send text and images`)
    }
    throw new Refused(
      `"${where}" is a ${part.type} part ${
        part.type === "image_url" && !images ? "in a message that takes only text" : `without its "${part.type}" field`
      }`
    )
  })
}

const parsedArguments = (call: ToolCall, at: string): unknown => {
  try {
    return JSON.parse(call.function.arguments.trim() === "" ? "{}" : call.function.arguments)
  } catch {
    throw new Refused(`"${at}.function.arguments" must be JSON`)
  }
}

/**
 * OpenAI's messages as UI messages (docs/DESIGN.md §14): an assistant's tool
 * calls become tool parts holding the results the tool messages after it
 * carry, as OpenAI requires them (every call answered, every answer called).
 * A list of issues when the conversation breaks a rule.
 */
export const toConversation = (messages: ReadonlyArray<CompletionMessage>): Conversation | ReadonlyArray<string> =>
  orIssues(() => convert(messages))

const convert = (messages: ReadonlyArray<CompletionMessage>): Conversation => {
  const system: Array<string> = []
  const out: Array<UIMessage> = []
  const origins: Array<number> = []
  let leading = true
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!
    const at = `messages[${index}]`
    const id = `m${index}`
    switch (message.role) {
      case "system":
      case "developer": {
        const text = textOf(message.content)
        if (leading) system.push(text)
        else {
          origins.push(index)
          out.push({ id, role: "system", parts: [{ type: "text", text }] })
        }
        continue
      }
      case "user":
        leading = false
        origins.push(index)
        out.push({ id, role: "user", parts: contentParts(message.content, at, true) })
        continue
      case "assistant": {
        leading = false
        origins.push(index)
        const parts: Array<Part> = []
        if (typeof message.reasoning_content === "string" && message.reasoning_content !== "") {
          parts.push({ type: "reasoning", text: message.reasoning_content })
        }
        parts.push(...contentParts(message.content, at, false))
        const calls = message.tool_calls ?? []
        const results = new Map<string, string>()
        while (messages[index + 1]?.role === "tool") {
          const answer = messages[++index]!
          const callId = answer.tool_call_id
          if (callId === undefined) throw new Refused(`"messages[${index}].tool_call_id" is required`)
          if (!calls.some((call) => call.id === callId)) {
            throw new Refused(
              `"messages[${index}]" answers tool call "${callId}", which the assistant message before it did not make`
            )
          }
          results.set(callId, textOf(answer.content))
        }
        calls.forEach((call, c) => {
          const output = results.get(call.id)
          if (output === undefined) {
            throw new Refused(
              `"${at}.tool_calls[${c}]" (id "${call.id}") has no answer: an assistant message with tool_calls must be followed by a tool message for each tool_call_id`
            )
          }
          parts.push({
            type: "dynamic-tool",
            toolName: call.function.name,
            toolCallId: call.id,
            state: "output-available",
            input: parsedArguments(call, `${at}.tool_calls[${c}]`),
            output
          })
        })
        out.push({ id, role: "assistant", parts })
        continue
      }
      case "tool":
        throw new Refused(`"${at}" is a tool message that does not follow an assistant message with tool_calls`)
      case "function":
        throw new Refused(`"${at}.role" "function" is deprecated and not supported: use "tool" messages`)
    }
  }
  return { system: system.length === 0 ? undefined : system.join("\n\n"), messages: out, origins }
}
