import type { UIMessage } from "ai"
import type { CollectedRun } from "../agent/Agent.ts"
import { collectMessage } from "../agent/collectMessage.ts"

/** The spec's ChatResponse for a run answered in one piece: the conversation plus the new assistant message. */
export const chatResponseBody = (
  run: CollectedRun,
  input: ReadonlyArray<UIMessage>,
  tools: { readonly used: ReadonlyArray<string>; readonly skipped: ReadonlyArray<string> }
) => {
  const { summary } = run
  const data: Record<string, unknown> = {
    messages: [...input, collectMessage(run.chunks)],
    usage: summary.usage,
    tools,
    finished: summary.finished
  }
  if (!summary.finished) data.finishReason = summary.finishReason
  return { success: true, data }
}
