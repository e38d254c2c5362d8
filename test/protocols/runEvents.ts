import type { ToolCallEvent, ToolProvenance } from "../../src/agent/RunEvent.ts"

/** A valid tool call event, as the agent emits it, for the doors' encoders and collectors. */
export const toolCall = (
  toolCallId: string,
  toolName: string,
  input: unknown,
  provenance: ToolProvenance
): ToolCallEvent => ({ type: "tool-call", toolCallId, toolName, input, provenance, dynamic: true })
