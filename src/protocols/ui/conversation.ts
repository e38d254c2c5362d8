import { convertToModelMessages, type ModelMessage, type UIMessage } from "ai"
import { Effect } from "effect"
import type { InternalChatRequest } from "../../chat/chatRequest.ts"
import { InvalidApproval } from "../../chat/planErrors.ts"
import { InvalidHistory } from "../../domain/requestErrors.ts"
import { redact } from "../../models/ProviderFailure.ts"
import { approvalAnswers } from "./approvalAnswers.ts"
import { checkHistory, isToolPart } from "./historyCheck.ts"

/** The spec's messages as the core takes them (docs/DESIGN.md §14). */
export type UiConversation = Pick<
  InternalChatRequest,
  "messages" | "origins" | "approvals" | "conversationProblem" | "continues"
>

/**
 * User messages of text alone (most chats) as the AI SDK's conversion makes
 * them, without its asynchronous work (a fiber suspension a request,
 * BENCHMARKS.md; property-tested against it). Anything else: undefined.
 */
const plainMessages = (messages: ReadonlyArray<UIMessage>): Array<ModelMessage> | undefined => {
  const out: Array<ModelMessage> = []
  for (const message of messages) {
    if (message.role !== "user") return undefined
    const content: Array<{ type: "text"; text: string }> = []
    for (const part of message.parts) {
      if (part.type !== "text" || part.providerMetadata != null) return undefined
      content.push({ type: "text", text: part.text })
    }
    out.push({ role: "user", content })
  }
  return out
}

// As the AI SDK's conversion of the whole list does: an approval request before the last user message was
// superseded, and is not sent.
const withoutSuperseded = (messages: ReadonlyArray<UIMessage>): ReadonlyArray<UIMessage> => {
  const lastUser = messages.findLastIndex((message) => message.role === "user")
  return lastUser <= 0 ? messages : messages.map((message, index) =>
    index >= lastUser ? message : {
      ...message,
      parts: message.parts.filter((part) =>
        !isToolPart(part) || (part as { state?: string }).state !== "approval-requested"
      )
    }
  )
}

/**
 * The AI SDK's conversion, one message at a time so that each model message
 * knows the client's message it came from. A message it cannot convert is
 * the client's mistake.
 */
const converted = async (
  messages: ReadonlyArray<UIMessage>
): Promise<Pick<UiConversation, "messages" | "origins"> | InvalidHistory> => {
  const out: Array<ModelMessage> = []
  const origins: Array<number> = []
  const sent = withoutSuperseded(messages)
  for (let index = 0; index < sent.length; index++) {
    try {
      for (const message of await convertToModelMessages([sent[index]!])) {
        out.push(message)
        origins.push(index)
      }
    } catch (error) {
      return new InvalidHistory({
        path: `messages[${index}]`,
        problem: `cannot be sent to a model: ${redact(error instanceof Error ? error.message : String(error))}`
      })
    }
  }
  return { messages: out, origins }
}

/**
 * The spec's messages (normalized) as model messages, with the approval
 * answers of the last one (docs/DESIGN.md §10) and what the conversation as
 * a whole breaks (§3.18), which the planner tells in its order.
 */
export const uiConversation = (messages: ReadonlyArray<UIMessage>): Effect.Effect<UiConversation> => {
  const plain = plainMessages(messages)
  if (plain !== undefined) return Effect.succeed({ messages: plain, origins: plain.map((_, index) => index) })
  const answers = approvalAnswers(messages)
  const found = checkHistory(messages) ?? (answers instanceof InvalidApproval ? answers : undefined)
  const approvals = answers instanceof InvalidApproval ? [] : answers
  return Effect.map(Effect.promise(() => converted(messages)), (conversion) => ({
    ...(conversion instanceof InvalidHistory ? { messages: [], origins: [] } : conversion),
    conversationProblem: found ?? (conversion instanceof InvalidHistory ? conversion : undefined),
    approvals,
    continues: approvals.length === 0 ? undefined : messages.at(-1)!.id
  }))
}
