import type { FilePart, ModelMessage, SystemModelMessage, TextPart, UserModelMessage } from "ai"
import type { ApprovalAnswer } from "../../agent/AgentRun.ts"
import type { InvalidHistory } from "../../domain/requestErrors.ts"
import { orIssues, Refused } from "../refused.ts"
import { parsedArguments } from "../toolArguments.ts"
import { assistantPart, reasoningPart, textOf, userPart } from "./inputParts.ts"
import { approvalRequest, mcpCall } from "./mcpInput.ts"
import type {
  ApprovalRequestItem,
  ApprovalResponseItem,
  FunctionCallItem,
  FunctionCallOutputItem,
  McpCallItem,
  MessageItem,
  ReasoningItem,
  ResponsesRequest
} from "./request.ts"
import { type Call, lastTurn, modelMessages, type Said, type Turn } from "./turns.ts"

/** The conversation as the core takes it: `instructions` and the leading system and developer messages as the system prompt. */
export interface Conversation {
  readonly system: string | undefined
  readonly messages: ReadonlyArray<ModelMessage>
  /** The index in the body's `input` of the item each of `messages` comes from: errors name the client's own places. */
  readonly origins: ReadonlyArray<number>
  /** Per message, the body's place of each of its content parts (`input[3].content[1]`). */
  readonly places: ReadonlyArray<ReadonlyArray<string>>
  /** The approval answers of the last turn, each at its `mcp_approval_response` item. */
  readonly approvals: ReadonlyArray<ApprovalAnswer>
  /** A call the model cannot be sent without its result, which the planner refuses (../../chat/chatRequest.ts). */
  readonly problem: InvalidHistory | undefined
}

/**
 * Responses input items as model messages (docs/DESIGN.md §14): the
 * assistant's items in a row (its messages, reasoning and calls) are one
 * turn, an assistant message and the tool message with the results the
 * `function_call_output` items carry; every call must be answered before
 * the next message, and every output answer a call (OpenAI's own rule). A
 * list of issues when the input breaks a rule.
 */
export const toConversation = (
  instructions: ResponsesRequest["instructions"],
  input: ResponsesRequest["input"]
): Conversation | ReadonlyArray<string> =>
  orIssues(() => {
    const system: Array<string> = instructions == null || instructions === "" ? [] : [instructions]
    const turns: ReadonlyArray<Turn> = typeof input === "string"
      ? [{
        role: "user",
        index: 0,
        message: { role: "user", content: input === "" ? [] : [{ type: "text", text: input }] },
        places: input === "" ? [] : ["input"]
      }]
      : turnsOf(input, system)
    return {
      system: system.length === 0 ? undefined : system.join("\n\n"),
      ...modelMessages(turns),
      ...lastTurn(turns)
    }
  })

/** The items as turns; the leading system and developer messages are added to `system`. */
const turnsOf = (input: Exclude<ResponsesRequest["input"], string>, system: Array<string>): ReadonlyArray<Turn> => {
  const turns: Array<Turn> = []
  // The calls of the assistant turn being built that wait for their output, by call_id.
  const waiting = new Map<string, Call>()
  // The approval requests sent back, by item id.
  const requested = new Map<string, Call>()
  let assistant: { readonly steps: Array<Said | Call>; answered: boolean } | undefined
  let images: Array<{ readonly part: FilePart | TextPart; readonly place: string; readonly index: number }> = []
  let leading = true
  const push = (index: number, message: UserModelMessage | SystemModelMessage, places: ReadonlyArray<string>) =>
    void turns.push({ role: message.role, index, message, places })
  // A tool's images are no tool output any provider takes: they follow the calls as a user message.
  const endTurn = () => {
    const [unanswered] = waiting.values()
    if (unanswered !== undefined) {
      throw new Refused(
        `"${unanswered.place}" (call_id "${unanswered.toolCallId}") has no function_call_output: answer every call before the next message`
      )
    }
    if (images.length > 0) {
      push(
        images[0]!.index,
        { role: "user", content: images.map((image) => image.part) },
        images.map((image) => image.place)
      )
      images = []
    }
    assistant = undefined
  }
  const addToAssistant = (index: number, step: Said | Call) => {
    if (assistant === undefined || assistant.answered) {
      if (assistant !== undefined) endTurn()
      assistant = { steps: [], answered: false }
      turns.push({ role: "assistant", index, steps: assistant.steps })
    }
    assistant.steps.push(step)
  }
  input.forEach((item, index) => {
    const at = `input[${index}]`
    if (item.type === undefined || item.type === "message") {
      const message = item as MessageItem
      if (message.role === "assistant") {
        leading = false
        if (typeof message.content === "string") {
          return addToAssistant(index, { type: "said", part: { type: "text", text: message.content }, place: at })
        }
        return message.content.forEach((part, p) => {
          const place = `${at}.content[${p}]`
          addToAssistant(index, { type: "said", part: assistantPart(part, place), place })
        })
      }
      endTurn()
      if (message.role === "user") {
        leading = false
        if (typeof message.content === "string") {
          const text = message.content
          return push(
            index,
            { role: "user", content: text === "" ? [] : [{ type: "text", text }] },
            text === "" ? [] : [at]
          )
        }
        const places = message.content.map((_, p) => `${at}.content[${p}]`)
        return push(
          index,
          { role: "user", content: message.content.map((part, p) => userPart(part, places[p]!)) },
          places
        )
      }
      const text = textOf(message.content, at)
      if (leading) return void system.push(text)
      return push(index, { role: "system", content: text }, [at])
    }
    switch (item.type) {
      case "reasoning": {
        const part = reasoningPart(item as ReasoningItem)
        return part === undefined ? undefined : addToAssistant(index, { type: "said", part, place: at })
      }
      case "function_call": {
        leading = false
        const { arguments: text, call_id, name } = item as FunctionCallItem
        const call: Call = {
          type: "call",
          toolCallId: call_id,
          toolName: name,
          input: parsedArguments(text, `${at}.arguments`),
          place: at
        }
        addToAssistant(index, call)
        return void waiting.set(call_id, call)
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
            const place = `${at}.output[${p}]`
            images.push({ part: userPart(part, place), place, index })
          }
        })
        const output = typeof answer.output === "string"
          ? answer.output
          : parts.filter((part) => part.type !== "input_image").map((part, p) => textOf([part], `${at}.output[${p}]`))
            .join("")
        return void (call.result = { output: { type: "text", value: output }, place: at })
      }
      case "mcp_list_tools":
        return
      case "mcp_call":
        leading = false
        return addToAssistant(index, mcpCall(item as McpCallItem, at))
      case "mcp_approval_request": {
        leading = false
        const request = item as ApprovalRequestItem
        const call = approvalRequest(request, at)
        addToAssistant(index, call)
        return void requested.set(request.id, call)
      }
      case "mcp_approval_response": {
        const { approval_request_id, approve, reason } = item as ApprovalResponseItem
        const approval = requested.get(approval_request_id)?.approval
        if (approval === undefined) {
          throw new Refused(
            `"${at}" answers approval_request_id "${approval_request_id}", which no mcp_approval_request before it made: send the request item back before its answer`
          )
        }
        requested.delete(approval_request_id)
        return void (approval.answer = { approved: approve, reason: reason ?? undefined, place: at })
      }
      default:
        throw new Refused(
          `"${at}" is a ${item.type} item, which parley does not take: send messages and function calls`
        )
    }
  })
  endTurn()
  return turns
}
