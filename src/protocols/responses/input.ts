import type { UIMessage } from "ai"
import { imagePart } from "../openai/imagePart.ts"
import { orIssues, Refused } from "../refused.ts"
import { reasoningMetadata } from "./encryptedReasoning.ts"
import { answerApproval, approvalRequestPart, mcpCallPart, parsedArguments, type ToolPart } from "./mcpInput.ts"
import type {
  ApprovalRequestItem,
  ApprovalResponseItem,
  ContentPart,
  FunctionCallItem,
  FunctionCallOutputItem,
  McpCallItem,
  MessageItem,
  ReasoningItem,
  ResponsesRequest
} from "./request.ts"

type Part = UIMessage["parts"][number]

/** The conversation as the core takes it: `instructions` and the leading system and developer messages as the system prompt. */
export interface Conversation {
  readonly system: string | undefined
  readonly messages: ReadonlyArray<UIMessage>
  /** Where each of `messages` begins in the body's `input`: errors name the client's own places. */
  readonly origins: ReadonlyArray<number>
  /** Per message, the body's place of each of its parts (`input[3].content[1]`). */
  readonly places: ReadonlyArray<ReadonlyArray<string>>
}

const textOf = (content: string | ReadonlyArray<ContentPart>, at: string): string =>
  typeof content === "string" ? content : content.map((part, p) => {
    if ("text" in part && typeof part.text === "string") return part.text
    if ("refusal" in part && typeof part.refusal === "string") return part.refusal
    throw new Refused(`"${at}.content[${p}]" is a ${part.type} part, which parley takes only in a user message`)
  }).join("")

const contentPart = (part: ContentPart, place: string, role: string): Part => {
  if ("text" in part && typeof part.text === "string") return { type: "text", text: part.text }
  if ("refusal" in part && typeof part.refusal === "string") return { type: "text", text: part.refusal }
  if (part.type === "input_image" && role === "user") {
    const url = "image_url" in part ? part.image_url : undefined
    if (typeof url === "string") return imagePart(url)
    throw new Refused(
      `"${place}" has no image_url: parley keeps no files, send the image as a data URL or an http(s) URL`
    )
  }
  throw new Refused(`"${place}" is a ${part.type} part, which parley does not take in a ${role} message`)
}

/**
 * Reasoning goes back as the reasoning part of the assistant's turn, its
 * encrypted content and id in the part's metadata, where the provider that
 * made it reads it back (./encryptedReasoning.ts). An item without text is dropped: no provider parley
 * speaks to reads OpenAI's encrypted reasoning (type `openai` is its Chat
 * Completions), and an empty turn would reach the model as an empty message.
 */
const reasoningPart = (item: ReasoningItem): Part | undefined => {
  const text = (item.content != null && item.content.length > 0 ? item.content : item.summary)
    .map((part) => part.text).join("\n\n")
  if (text === "") return undefined
  const providerMetadata = reasoningMetadata(item.id, item.encrypted_content)
  return { type: "reasoning", text, ...(providerMetadata === undefined ? {} : { providerMetadata }) }
}

/**
 * Responses input items as UI messages (docs/DESIGN.md §14): the assistant's
 * items in a row (its messages, reasoning and `function_call`s) are one
 * assistant message whose tool parts hold the results the
 * `function_call_output` items carry; every call must be answered before the
 * next message, and every output answer a call (OpenAI's own rule). A list
 * of issues when the input breaks a rule.
 */
export const toConversation = (
  instructions: ResponsesRequest["instructions"],
  input: ResponsesRequest["input"]
): Conversation | ReadonlyArray<string> => orIssues(() => convert(instructions, input))

const convert = (instructions: ResponsesRequest["instructions"], input: ResponsesRequest["input"]): Conversation => {
  const system: Array<string> = instructions == null || instructions === "" ? [] : [instructions]
  if (typeof input === "string") {
    return {
      system: system.length === 0 ? undefined : system.join("\n\n"),
      messages: [{ id: "m0", role: "user", parts: input === "" ? [] : [{ type: "text", text: input }] }],
      origins: [0],
      places: [["input"]]
    }
  }
  const out: Array<UIMessage> = []
  const origins: Array<number> = []
  const places: Array<Array<string>> = []
  // The calls of the assistant message being built that wait for their output, by call_id.
  const waiting = new Map<string, { readonly part: ToolPart; readonly at: string }>()
  // The approval requests sent back, by item id, and where their part's place is kept: the answer takes it.
  const requested = new Map<
    string,
    { readonly part: ToolPart; readonly places: Array<string>; readonly slot: number }
  >()
  let assistant: { readonly parts: Array<Part>; readonly places: Array<string>; answered: boolean } | undefined
  let images: Array<{ readonly part: Part; readonly place: string; readonly index: number }> = []
  let leading = true
  const push = (index: number, message: UIMessage, at: Array<string>) => {
    origins.push(index)
    places.push(at)
    out.push(message)
  }
  // A tool's images are no tool output any provider takes: they follow the calls as a user message.
  const endTurn = () => {
    if (waiting.size > 0) {
      const [callId, { at }] = [...waiting][0]!
      throw new Refused(
        `"${at}" (call_id "${callId}") has no function_call_output: answer every call before the next message`
      )
    }
    if (images.length > 0) {
      push(
        images[0]!.index,
        { id: `i${images[0]!.index}`, role: "user", parts: images.map((i) => i.part) },
        images.map((i) => i.place)
      )
      images = []
    }
    assistant = undefined
  }
  const addToAssistant = (index: number, part: Part, place: string) => {
    if (assistant === undefined || assistant.answered) {
      if (assistant !== undefined) endTurn()
      assistant = { parts: [], places: [], answered: false }
      push(index, { id: `m${index}`, role: "assistant", parts: assistant.parts }, assistant.places)
    }
    assistant.parts.push(part)
    assistant.places.push(place)
  }
  input.forEach((item, index) => {
    const at = `input[${index}]`
    if (item.type === undefined || item.type === "message") {
      const message = item as MessageItem
      if (message.role === "assistant") {
        leading = false
        const parts = typeof message.content === "string"
          ? [{ type: "text", text: message.content } as const]
          : message.content
        return parts.forEach((part, p) => {
          const place = typeof message.content === "string" ? at : `${at}.content[${p}]`
          addToAssistant(index, contentPart(part, place, "assistant"), place)
        })
      }
      endTurn()
      if (message.role === "user") {
        leading = false
        const content = typeof message.content === "string"
          ? (message.content === "" ? [] : [{ type: "text", text: message.content } as const])
          : message.content
        return push(
          index,
          {
            id: `m${index}`,
            role: "user",
            parts: content.map((part, p) => contentPart(part, `${at}.content[${p}]`, "user"))
          },
          content.map((_, p) => typeof message.content === "string" ? at : `${at}.content[${p}]`)
        )
      }
      const text = textOf(message.content, at)
      if (leading) return void system.push(text)
      return push(index, { id: `m${index}`, role: "system", parts: [{ type: "text", text }] }, [at])
    }
    switch (item.type) {
      case "reasoning": {
        const part = reasoningPart(item as ReasoningItem)
        return part === undefined ? undefined : addToAssistant(index, part, at)
      }
      case "function_call": {
        leading = false
        const call = item as FunctionCallItem
        const part = {
          type: "dynamic-tool",
          toolName: call.name,
          toolCallId: call.call_id,
          state: "input-available",
          input: parsedArguments(call.arguments, at)
        } as ToolPart
        addToAssistant(index, part, at)
        return void waiting.set(call.call_id, { part, at })
      }
      case "function_call_output": {
        const answer = item as FunctionCallOutputItem
        const call = waiting.get(answer.call_id)
        if (call === undefined) {
          throw new Refused(`"${at}" answers call_id "${answer.call_id}", which no function_call before it made`)
        }
        waiting.delete(answer.call_id)
        assistant!.answered = true
        const parts = typeof answer.output === "string" ? [] : answer.output
        parts.forEach((part, p) => {
          if (part.type === "input_image") {
            images.push({ part: contentPart(part, `${at}.output[${p}]`, "user"), place: `${at}.output[${p}]`, index })
          }
        })
        const output = typeof answer.output === "string"
          ? answer.output
          : parts.filter((part) => part.type !== "input_image").map((part, p) => textOf([part], `${at}.output[${p}]`))
            .join("")
        return void Object.assign(call.part, { state: "output-available", output })
      }
      case "mcp_list_tools":
        return
      case "mcp_call":
        leading = false
        return addToAssistant(index, mcpCallPart(item as McpCallItem, at), at)
      case "mcp_approval_request": {
        leading = false
        const request = item as ApprovalRequestItem
        addToAssistant(index, approvalRequestPart(request, at), at)
        const { parts, places: kept } = assistant!
        return void requested.set(request.id, { part: parts.at(-1) as ToolPart, places: kept, slot: kept.length - 1 })
      }
      case "mcp_approval_response": {
        const answer = item as ApprovalResponseItem
        const asked = requested.get(answer.approval_request_id)
        if (asked === undefined) {
          throw new Refused(
            `"${at}" answers approval_request_id "${answer.approval_request_id}", which no mcp_approval_request before it made: send the request item back before its answer`
          )
        }
        requested.delete(answer.approval_request_id)
        answerApproval(asked.part, answer)
        // Errors about the answer name the answer.
        return void (asked.places[asked.slot] = at)
      }
      default:
        throw new Refused(
          `"${at}" is a ${item.type} item, which parley does not take: send messages and function calls`
        )
    }
  })
  endTurn()
  return { system: system.length === 0 ? undefined : system.join("\n\n"), messages: out, origins, places }
}
