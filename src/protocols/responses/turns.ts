import type { AssistantContent, ModelMessage, TextPart, ToolContent } from "ai"
import type { ApprovalAnswer } from "../../agent/AgentRun.ts"
import { InvalidHistory } from "../../domain/requestErrors.ts"

type AssistantPart = Exclude<AssistantContent, string>[number]
type ReasoningPart = Extract<AssistantPart, { type: "reasoning" }>

/** What the assistant said in a turn, at its place in `input`. */
export interface Said {
  readonly type: "said"
  readonly part: TextPart | ReasoningPart
  readonly place: string
}

/** A client's answer to an approval request, at its `mcp_approval_response` item. */
export interface Answer {
  readonly approved: boolean
  readonly reason: string | undefined
  readonly place: string
}

/**
 * A call of an assistant turn: a function call, a server tool call parley
 * ran, or one parley asked a person's approval for. `result` is its outcome
 * as the model is told it, and the item that told it; a function call
 * waits for it until its `function_call_output` comes.
 */
export interface Call {
  readonly type: "call"
  readonly toolCallId: string
  readonly toolName: string
  readonly input: unknown
  readonly place: string
  result?: { readonly output: { readonly type: "text" | "error-text"; readonly value: string }; readonly place: string }
  readonly approval?: { readonly id: string; answer?: Answer }
}

/**
 * A message of the conversation as the Responses items make it: a user or
 * system message as the model takes it, or the items of an assistant's turn
 * in a row, which make an assistant message and the tool message answering
 * its calls.
 */
export type Turn =
  | { readonly role: "assistant"; readonly index: number; readonly steps: Array<Said | Call> }
  | {
    readonly role: "user" | "system"
    readonly index: number
    readonly message: ModelMessage
    readonly places: ReadonlyArray<string>
  }

const waitsForAnswer = (step: Said | Call): boolean =>
  step.type === "call" && step.approval !== undefined && step.approval.answer === undefined

/** The model messages of the turns, each one's index in `input` and the place of each of its content parts. */
export const modelMessages = (turns: ReadonlyArray<Turn>) => {
  const messages: Array<ModelMessage> = []
  const origins: Array<number> = []
  const places: Array<ReadonlyArray<string>> = []
  const push = (index: number, message: ModelMessage, at: ReadonlyArray<string>) => {
    messages.push(message)
    origins.push(index)
    places.push(at)
  }
  const lastUser = turns.findLastIndex((turn) => turn.role === "user")
  turns.forEach((turn, m) => {
    if (turn.role !== "assistant") return push(turn.index, turn.message, turn.places)
    // A request a later user message superseded is not sent (as the AI SDK's conversion drops it).
    const steps = lastUser > 0 && m < lastUser ? turn.steps.filter((step) => !waitsForAnswer(step)) : turn.steps
    const said: Array<AssistantPart> = []
    const saidAt: Array<string> = []
    const answers: ToolContent = []
    const answersAt: Array<string> = []
    for (const step of steps) {
      if (step.type === "said") {
        said.push(step.part)
        saidAt.push(step.place)
        continue
      }
      const { approval, result, toolCallId, toolName } = step
      said.push({ type: "tool-call", toolCallId, toolName, input: step.input })
      saidAt.push(step.place)
      if (result !== undefined) {
        answers.push({ type: "tool-result", toolCallId, toolName, output: result.output })
        answersAt.push(result.place)
      }
      if (approval === undefined) continue
      said.push({ type: "tool-approval-request", approvalId: approval.id, toolCallId })
      saidAt.push(step.place)
      const answer = approval.answer
      if (answer === undefined) continue
      const reason = answer.reason === undefined ? {} : { reason: answer.reason }
      answers.push({ type: "tool-approval-response", approvalId: approval.id, approved: answer.approved, ...reason })
      answersAt.push(answer.place)
      // A denied call is told to the model as denied; an approved one is the run's to carry out.
      if (answer.approved) continue
      answers.push({ type: "tool-result", toolCallId, toolName, output: { type: "execution-denied", ...reason } })
      answersAt.push(answer.place)
    }
    if (said.length > 0) push(turn.index, { role: "assistant", content: said }, saidAt)
    if (answers.length > 0) push(turn.index, { role: "tool", content: answers }, answersAt)
  })
  return { messages, origins, places }
}

const calls = (turn: Turn | undefined): ReadonlyArray<Call> =>
  turn?.role === "assistant" ? turn.steps.filter((step): step is Call => step.type === "call") : []

/**
 * The first call the model cannot be sent (docs/DESIGN.md §3.18), whose
 * result it would lack: a function call left waiting, a request left
 * unanswered in a turn no later user message superseded, or one approved
 * in an earlier turn than the last. Its
 * words are `/api/v1/chat`'s, as this door's were when it went through it.
 */
const callWithoutResult = (turns: ReadonlyArray<Turn>): InvalidHistory | undefined => {
  const lastUser = turns.findLastIndex((turn) => turn.role === "user")
  for (const [m, turn] of turns.entries()) {
    for (const { approval, place, result, toolCallId, toolName } of calls(turn)) {
      const answer = approval?.answer
      // A function call is left waiting when a later call takes its call_id before its output comes.
      const lacksResult = approval === undefined
        ? result === undefined
        : answer === undefined
        ? !(lastUser > 0 && m < lastUser)
        : answer.approved && m < turns.length - 1
      if (!lacksResult) continue
      return new InvalidHistory({
        path: answer?.place ?? place,
        problem: `is a call of tool "${toolName}" (toolCallId "${toolCallId}") without its result: ` +
          `send the result in that part (state "output-available" or "output-error") or leave the call out`
      })
    }
  }
  return undefined
}

/**
 * The approval answers of the conversation's last turn (docs/DESIGN.md
 * §10), each at its `mcp_approval_response`, and what is wrong with the
 * conversation's calls, if anything.
 */
export const lastTurn = (turns: ReadonlyArray<Turn>): {
  readonly approvals: ReadonlyArray<ApprovalAnswer>
  readonly problem: InvalidHistory | undefined
} => ({
  approvals: calls(turns.at(-1)).flatMap(({ approval, input, toolCallId, toolName }) =>
    approval?.answer === undefined ? [] : [{
      path: approval.answer.place,
      approvalId: approval.id,
      toolCallId,
      toolName,
      input,
      approved: approval.answer.approved,
      reason: approval.answer.reason
    }]
  ),
  problem: callWithoutResult(turns)
})
