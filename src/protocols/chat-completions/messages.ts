import type { AssistantContent, FilePart, ModelMessage, TextPart, ToolResultPart } from "ai"
import { imageFilePart } from "../openai/imagePart.ts"
import { orIssues, parsedUrl, Refused } from "../refused.ts"
import { parsedArguments } from "../toolArguments.ts"
import type { CompletionMessage, ContentPart } from "./request.ts"

/** The conversation as the core takes it: the leading system and developer messages as the system prompt. */
export interface Conversation {
  readonly system: string | undefined
  readonly messages: ReadonlyArray<ModelMessage>
  /** The index in the body's `messages` of each model message's message: errors name the client's own places. */
  readonly origins: ReadonlyArray<number>
}

const textOf = (content: CompletionMessage["content"]): string =>
  typeof content === "string"
    ? content
    : (content ?? []).map((part) => part.text ?? part.refusal ?? "").join("")

// One model part a body part, in order: a failure naming `content[j]` of a model message names the body's part j.
const contentParts = (
  content: CompletionMessage["content"],
  at: string,
  images: boolean
): Array<TextPart | FilePart> => {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }]
  return (content ?? []).flatMap((part: ContentPart, index): Array<TextPart | FilePart> => {
    const where = `${at}.content[${index}]`
    if (part.type === "text" && part.text !== undefined) return [{ type: "text", text: part.text }]
    if (part.type === "refusal" && part.refusal !== undefined) return [{ type: "text", text: part.refusal }]
    if (part.type === "image_url" && part.image_url !== undefined && images) {
      return [
        imageFilePart(parsedUrl(part.image_url.url, `${where}.image_url.url`, "send a data URL or an http(s) URL"))
      ]
    }
    if (part.type === "input_audio" || part.type === "file") {
      throw new Refused(`"${where}" is a ${part.type} part, which parley does not take: send text and images`)
    }
    throw new Refused(
      `"${where}" is a ${part.type} part ${
        part.type === "image_url" && !images
          ? "in a message that takes only text"
          : `without its "${part.type}" field`
      }`
    )
  })
}

/**
 * OpenAI's messages as the model's (docs/DESIGN.md §14): an assistant
 * message with tool calls is the model's assistant message and a tool
 * message of the results the tool messages after it carry, as OpenAI
 * requires them (every call answered, every answer called). A list of
 * issues when the conversation breaks a rule.
 */
export const toConversation = (messages: ReadonlyArray<CompletionMessage>): Conversation | ReadonlyArray<string> =>
  orIssues(() => convert(messages))

const convert = (messages: ReadonlyArray<CompletionMessage>): Conversation => {
  const system: Array<string> = []
  const out: Array<ModelMessage> = []
  const origins: Array<number> = []
  const push = (index: number, message: ModelMessage) => {
    origins.push(index)
    out.push(message)
  }
  let leading = true
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!
    const at = `messages[${index}]`
    switch (message.role) {
      case "system":
      case "developer": {
        const text = textOf(message.content)
        if (leading) system.push(text)
        else push(index, { role: "system", content: text })
        continue
      }
      case "user":
        leading = false
        push(index, { role: "user", content: contentParts(message.content, at, true) })
        continue
      case "assistant": {
        leading = false
        const origin = index
        const content: Exclude<AssistantContent, string> = []
        if (typeof message.reasoning_content === "string" && message.reasoning_content !== "") {
          content.push({ type: "reasoning", text: message.reasoning_content })
        }
        content.push(...contentParts(message.content, at, false))
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
        const answers: Array<ToolResultPart> = []
        calls.forEach((call, c) => {
          const output = results.get(call.id)
          if (output === undefined) {
            throw new Refused(
              `"${at}.tool_calls[${c}]" (id "${call.id}") has no answer: an assistant message with tool_calls must be followed by a tool message for each tool_call_id`
            )
          }
          const input = parsedArguments(call.function.arguments, `${at}.tool_calls[${c}].function.arguments`)
          content.push({ type: "tool-call", toolCallId: call.id, toolName: call.function.name, input })
          answers.push({
            type: "tool-result",
            toolCallId: call.id,
            toolName: call.function.name,
            output: { type: "text", value: output }
          })
        })
        // As the AI SDK leaves them: an assistant message with nothing to say is not sent.
        if (content.length > 0) push(origin, { role: "assistant", content })
        if (answers.length > 0) push(origin, { role: "tool", content: answers })
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
