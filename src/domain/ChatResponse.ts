import { Schema } from "effect"
import { Count } from "./Count.ts"

export const Usage = Schema.Struct({
  inputTokens: Schema.optionalKey(Count),
  outputTokens: Schema.optionalKey(Count),
  totalTokens: Schema.optionalKey(Count),
  reasoningTokens: Schema.optionalKey(Count),
  cachedInputTokens: Schema.optionalKey(Count)
})

export const ToolUsage = Schema.Struct({
  used: Schema.Array(Schema.String),
  skipped: Schema.Array(Schema.String)
})

/** The non-streaming answer of POST /chat (docs/DESIGN.md §3.4 adds `finished` and `finishReason`). */
export const ChatResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    messages: Schema.Array(Schema.Unknown).annotate({
      description: "The input history plus the assistant's UIMessage (text, reasoning and dynamic-tool parts)."
    }),
    usage: Usage,
    tools: ToolUsage,
    finished: Schema.Boolean,
    finishReason: Schema.optional(Schema.Literals(["step-limit", "timeout"]))
  })
}).annotate({ identifier: "ChatResponse" })
