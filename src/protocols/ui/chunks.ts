import type { UIMessageChunk } from "ai"
import type { RunEvent } from "../../agent/RunEvent.ts"
import { wireError } from "../../http/errorTable.ts"

/**
 * A run event as the AI SDK UI message chunk `streamText(...).toUIMessageStream()`
 * writes for it (docs/DESIGN.md §3.1, §14), field for field and in its
 * order. The text, reasoning and tool-input events are such chunks already:
 * they go as they are, so the spec's hot path makes nothing more per delta.
 * A provider failure is told in the error table's words, as the spec's error body tells it.
 */
export const uiChunk = (event: RunEvent): UIMessageChunk => {
  switch (event.type) {
    case "error":
      return { type: "error", errorText: wireError(event.failure).message }
    case "tool-input-start": {
      // Who runs the call is the other doors' concern: the UI chunk has no such field.
      const { provenance: _, ...chunk } = event
      return chunk
    }
    case "tool-call": {
      const common = {
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        input: event.input,
        ...(event.providerExecuted == null ? {} : { providerExecuted: event.providerExecuted }),
        ...(event.providerMetadata == null ? {} : { providerMetadata: event.providerMetadata }),
        dynamic: event.dynamic
      }
      return event.errorText === undefined
        ? { type: "tool-input-available", ...common }
        : { type: "tool-input-error", ...common, errorText: event.errorText }
    }
    case "tool-result":
      return {
        type: "tool-output-available",
        toolCallId: event.toolCallId,
        output: event.output,
        ...(event.providerMetadata == null ? {} : { providerMetadata: event.providerMetadata }),
        dynamic: true
      }
    case "tool-error":
      return {
        type: "tool-output-error",
        toolCallId: event.toolCallId,
        errorText: event.errorText,
        ...(event.providerMetadata == null ? {} : { providerMetadata: event.providerMetadata }),
        dynamic: true
      }
    case "finish":
      // The run's summary is the ui message's metadata (docs/DESIGN.md §3.15).
      return { type: "finish", finishReason: event.finishReason, messageMetadata: event.summary }
    default:
      return event
  }
}
