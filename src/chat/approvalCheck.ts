import { Effect } from "effect"
import type { ApprovalAnswer } from "../agent/AgentRun.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { Approvals } from "../governance/Approvals.ts"
import { InvalidApproval } from "./planErrors.ts"

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
