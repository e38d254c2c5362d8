import type { ToolCallEvent, ToolInputStartEvent, ToolProvenance } from "../../src/agent/RunEvent.ts"

/** A valid tool call event, as the agent emits it, for the doors' encoders and collectors. */
export const toolCall = (
  toolCallId: string,
  toolName: string,
  input: unknown,
  provenance: ToolProvenance
): ToolCallEvent => ({ type: "tool-call", toolCallId, toolName, input, provenance, dynamic: true })

/** A tool call's input beginning to stream, and who will run it. */
export const inputStart = (toolCallId: string, toolName: string, provenance: ToolProvenance): ToolInputStartEvent => ({
  type: "tool-input-start",
  toolCallId,
  toolName,
  provenance,
  dynamic: true
})
