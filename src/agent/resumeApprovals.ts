import type { ModelMessage } from "ai"
import { Effect } from "effect"
import type { AgentRun } from "./AgentRun.ts"
import type { ClientPace } from "./ClientPace.ts"
import { approvedResults } from "./history.ts"
import type { RunState } from "./RunState.ts"
import { runTools, type ToolOutcome } from "./runTools.ts"
import { parseToolCall, type ValidToolCall } from "./toolInput.ts"
import type { ToolSet } from "./toolSet.ts"

/**
 * Carries out the approval answers of the conversation's last message before
 * the first step, in `streamText`'s order (docs/DESIGN.md §10): `start`, the
 * denied calls' `tool-output-denied` (the conversation already tells the
 * model of them), then the approved calls run, their outputs sent as they
 * finish. Returns what the model is told of the approved calls.
 *
 * Untraced: a span costs ~20 µs a call, and this runs on every request (BENCHMARKS.md).
 */
export const resumeApprovals = Effect.fnUntraced(function*(
  run: AgentRun,
  state: RunState,
  tools: ToolSet,
  pace: ClientPace
) {
  const answers = run.resume?.answers ?? []
  if (answers.length === 0) return [] as Array<ModelMessage>
  state.begin()
  for (const answer of answers) if (!answer.approved) state.toolDenied(answer.toolCallId)
  // The input was signed as parley parsed it; a tool whose schema changed since refuses it as the model's call would be.
  const calls = answers.filter((answer) => answer.approved).map((answer) =>
    parseToolCall({
      type: "tool-call",
      toolCallId: answer.toolCallId,
      toolName: answer.toolName,
      input: JSON.stringify(answer.input ?? {})
    }, tools)
  )
  const outcomes = new Map<string, ToolOutcome>()
  for (const call of calls) {
    if (call.valid) continue
    state.toolInputRefused(call.toolCallId, call.errorText)
    outcomes.set(call.toolCallId, { ok: false, errorText: call.errorText })
  }
  const valid = calls.filter((call): call is ValidToolCall => call.valid)
  for (const [id, outcome] of yield* runTools(state, valid, run, pace)) outcomes.set(id, outcome)
  return approvedResults(calls.map((call) => ({ call, outcome: outcomes.get(call.toolCallId)! })))
})
