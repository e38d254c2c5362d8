import type { UIMessage } from "ai"
import type { CollectedRun } from "../../agent/Agent.ts"
import { uiChunk } from "./chunks.ts"
import { collectMessage } from "./collect.ts"

/**
 * The spec's ChatResponse for a run answered in one piece: the conversation
 * plus the new assistant message, or with its last message continued when
 * the run carried out the approvals in it (docs/DESIGN.md §10).
 */
export const chatResponseBody = (
  run: CollectedRun,
  input: ReadonlyArray<UIMessage>,
  tools: { readonly used: ReadonlyArray<string>; readonly skipped: ReadonlyArray<string> },
  continues = false
) => {
  const { summary } = run
  const messages = continues
    ? [...input.slice(0, -1), collectMessage(run.events, input.at(-1), uiChunk)]
    : [...input, collectMessage(run.events, undefined, uiChunk)]
  return {
    success: true,
    data: {
      messages,
      usage: summary.usage,
      tools,
      // Always both: the model's last finish reason or parley's own (docs/DESIGN.md §3.15).
      finished: summary.finished,
      finishReason: summary.finishReason
    }
  }
}
