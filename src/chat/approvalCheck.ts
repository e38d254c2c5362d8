import type { UIMessage } from "ai"
import { Effect } from "effect"
import type { ApprovalAnswer } from "../agent/AgentRun.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { Approvals } from "../governance/Approvals.ts"
import { InvalidApproval } from "./planErrors.ts"

interface RespondedPart {
  readonly type: string
  readonly toolName?: string
  readonly toolCallId: string
  readonly state: string
  readonly input?: unknown
  readonly approval?: { readonly id?: unknown; readonly approved?: unknown; readonly reason?: unknown }
}

const isToolPart = (part: { readonly type: string }) => part.type === "dynamic-tool" || part.type.startsWith("tool-")

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

/**
 * Whether each answer carries an approval id parley issued for this key,
 * call, tool and input less than 24 hours ago, and an approved call is of a
 * tool this request offers. Signatures only: `claimApprovals` then records
 * them as honoured.
 */
export const checkApprovals = (
  answers: ReadonlyArray<ApprovalAnswer>,
  key: ApiKey,
  approvals: Approvals["Service"],
  offered: ReadonlySet<string>,
  now: number
): InvalidApproval | undefined => {
  for (const answer of answers) {
    const subject = { keyId: key.id, toolCallId: answer.toolCallId, toolName: answer.toolName, input: answer.input }
    const problem = approvals.ids.check(answer.approvalId, subject, now)
    if (problem === "forged") {
      return new InvalidApproval({
        path: answer.path,
        problem: `carries an approval id that parley did not issue for this call of "${answer.toolName}" ` +
          `(toolCallId "${answer.toolCallId}") with this input and API key`
      })
    }
    if (problem === "expired") {
      return new InvalidApproval({
        path: answer.path,
        problem:
          "carries an approval id older than 24 hours: send the conversation again to have the call requested anew"
      })
    }
    if (answer.approved && !offered.has(answer.toolName)) {
      return new InvalidApproval({
        path: answer.path,
        problem: `approves a call of tool "${answer.toolName}", which this request does not offer`
      })
    }
  }
  return undefined
}

/** Records the answers' ids as honoured; an id honoured before is refused, and then none is recorded. */
export const claimApprovals = (
  answers: ReadonlyArray<ApprovalAnswer>,
  approvals: Approvals["Service"]
): Effect.Effect<void, InvalidApproval> =>
  Effect.flatMap(approvals.claim(answers.map((answer) => answer.approvalId)), (used) => {
    const reused = answers.find((answer) => used.includes(answer.approvalId))
    return reused === undefined ? Effect.void : Effect.fail(
      new InvalidApproval({
        path: reused.path,
        problem: "carries an approval id that was already used: an approval runs its call once"
      })
    )
  })
