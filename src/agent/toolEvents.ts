import type { JSONValue, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import type { ProviderMetadata } from "./OpenBlocks.ts"
import type { ToolCallEvent, ToolErrorEvent, ToolInputStartEvent, ToolProvenance, ToolResultEvent } from "./RunEvent.ts"
import type { ParsedToolCall, ValidToolCall } from "./toolInput.ts"

// The run events of a tool call; their fields in the order the AI SDK's UI chunks have them (protocols/ui/chunks.ts).

export type ToolInputStart = Extract<LanguageModelV4StreamPart, { type: "tool-input-start" }>

/** Who runs a call: the client's own tool is the client's, else the provider when it says it ran it, else parley. */
export const provenanceOf = (client: boolean, providerExecuted: boolean | undefined): ToolProvenance =>
  client ? "client" : providerExecuted === true ? "hosted" : "server"

export const toolInputStartEvent = (
  part: ToolInputStart,
  dynamic: boolean,
  provenance: ToolProvenance
): ToolInputStartEvent => ({
  type: "tool-input-start",
  toolCallId: part.id,
  toolName: part.toolName,
  provenance,
  ...(part.inputEncoding == null ? {} : { inputEncoding: part.inputEncoding }),
  ...(part.providerExecuted == null ? {} : { providerExecuted: part.providerExecuted }),
  ...(part.providerMetadata == null ? {} : { providerMetadata: part.providerMetadata }),
  dynamic,
  ...(part.title == null ? {} : { title: part.title })
})

/** A complete tool call: its input, who runs it, or why it is invalid. */
export const toolCallEvent = (call: ParsedToolCall): ToolCallEvent => ({
  type: "tool-call",
  toolCallId: call.toolCallId,
  toolName: call.toolName,
  input: call.input,
  provenance: provenanceOf(call.client === true, call.providerExecuted),
  ...(call.providerExecuted == null ? {} : { providerExecuted: call.providerExecuted }),
  ...(call.providerMetadata == null ? {} : { providerMetadata: call.providerMetadata }),
  dynamic: true,
  ...(call.valid ? {} : { errorText: call.errorText })
})

export const toolResultEvent = (call: ValidToolCall, output: JSONValue): ToolResultEvent => ({
  type: "tool-result",
  toolCallId: call.toolCallId,
  output,
  ...(call.providerMetadata == null ? {} : { providerMetadata: call.providerMetadata })
})

export const toolErrorEvent = (
  toolCallId: string,
  errorText: string,
  providerMetadata: ProviderMetadata
): ToolErrorEvent => ({
  type: "tool-error",
  toolCallId,
  errorText,
  ...(providerMetadata == null ? {} : { providerMetadata })
})
