import type { JSONValue, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import type { UIMessageChunk } from "ai"
import type { ParsedToolCall, ValidToolCall } from "./toolInput.ts"

// The UI message chunks of a tool call, field for field as `streamText(...).toUIMessageStream()` writes them.

export type ToolInputStart = Extract<LanguageModelV4StreamPart, { type: "tool-input-start" }>

export const toolInputStartChunk = (part: ToolInputStart, dynamic: boolean): UIMessageChunk => ({
  type: "tool-input-start",
  toolCallId: part.id,
  toolName: part.toolName,
  ...(part.inputEncoding == null ? {} : { inputEncoding: part.inputEncoding }),
  ...(part.providerExecuted == null ? {} : { providerExecuted: part.providerExecuted }),
  ...(part.providerMetadata == null ? {} : { providerMetadata: part.providerMetadata }),
  dynamic,
  ...(part.title == null ? {} : { title: part.title })
})

/** A complete tool call: its input, or why it is invalid. */
export const toolCallChunk = (call: ParsedToolCall): UIMessageChunk => {
  const common = {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: call.input,
    ...(call.providerExecuted == null ? {} : { providerExecuted: call.providerExecuted }),
    ...(call.providerMetadata == null ? {} : { providerMetadata: call.providerMetadata }),
    dynamic: true
  }
  return call.valid
    ? { type: "tool-input-available", ...common }
    : { type: "tool-input-error", ...common, errorText: call.errorText }
}

export const toolOutputChunk = (call: ValidToolCall, output: JSONValue): UIMessageChunk => ({
  type: "tool-output-available",
  toolCallId: call.toolCallId,
  output,
  ...(call.providerMetadata == null ? {} : { providerMetadata: call.providerMetadata }),
  dynamic: true
})

export const toolErrorChunk = (call: ValidToolCall, errorText: string): UIMessageChunk => ({
  type: "tool-output-error",
  toolCallId: call.toolCallId,
  errorText,
  ...(call.providerMetadata == null ? {} : { providerMetadata: call.providerMetadata }),
  dynamic: true
})
