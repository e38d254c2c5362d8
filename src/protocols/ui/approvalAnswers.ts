import type { UIMessage } from "ai"
import type { ApprovalAnswer } from "../../agent/AgentRun.ts"
import { InvalidApproval } from "../../chat/planErrors.ts"
import { isToolPart } from "./historyCheck.ts"

interface RespondedPart {
  readonly type: string
  readonly toolName?: string
  readonly toolCallId: string
  readonly state: string
  readonly input?: unknown
  readonly approval?: { readonly id?: unknown; readonly approved?: unknown; readonly reason?: unknown }
}

/**
 * The approval answers (`approval-responded` parts) of the conversation's
 * last message, when it is the assistant's: what `useChat`'s
 * `addToolApprovalResponse` sends back. Answers anywhere else were
 * superseded (docs/DESIGN.md §10); an approved one there is an invalid history.
 */
export const approvalAnswers = (
  messages: ReadonlyArray<UIMessage>
): ReadonlyArray<ApprovalAnswer> | InvalidApproval => {
  const m = messages.length - 1
  const last = messages[m]
  if (last?.role !== "assistant") return []
  const answers: Array<ApprovalAnswer> = []
  for (let p = 0; p < last.parts.length; p++) {
    const part = last.parts[p] as RespondedPart
    if (!isToolPart(part) || part.state !== "approval-responded") continue
    const path = `messages[${m}].parts[${p}]`
    const { approved, id, reason } = part.approval ?? {}
    if (
      typeof id !== "string" || typeof approved !== "boolean" || (reason !== undefined && typeof reason !== "string")
    ) {
      return new InvalidApproval({
        path,
        problem:
          "needs \"approval\": {\"id\": <the approval id parley sent>, \"approved\": true or false, \"reason\"?: text}"
      })
    }
    answers.push({
      path,
      approvalId: id,
      toolCallId: part.toolCallId,
      toolName: part.toolName ?? part.type.slice("tool-".length),
      input: part.input,
      approved,
      reason
    })
  }
  return answers
}
