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
  return {
    success: true,
    data: {
      messages: [...input, collectMessage(run.chunks)],
      usage: summary.usage,
      tools,
      // Always both: the model's last finish reason or parley's own (docs/DESIGN.md §3.15).
      finished: summary.finished,
      finishReason: summary.finishReason
    }
  }
}
