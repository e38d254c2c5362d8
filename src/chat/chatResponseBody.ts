import type { UIMessage, UIMessageChunk } from "ai"
import { collectMessage } from "../agent/collectMessage.ts"

/** The spec's ChatResponse for a run answered in one piece: the conversation plus the new assistant message. */
export const chatResponseBody = (
  chunks: ReadonlyArray<UIMessageChunk>,
  input: ReadonlyArray<UIMessage>,
  tools: { readonly used: ReadonlyArray<string>; readonly skipped: ReadonlyArray<string> }
) => {
  const { message, summary } = collectMessage(chunks)
  const data: Record<string, unknown> = {
    messages: [...input, message],
    usage: summary.usage,
    tools,
    finished: summary.finished
  }
  if (summary.finishReason !== undefined) data.finishReason = summary.finishReason
  return { success: true, data }
}
