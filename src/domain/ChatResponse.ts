import { Schema } from "effect"

export const Usage = Schema.Struct({
  inputTokens: Schema.optional(Schema.Number),
  outputTokens: Schema.optional(Schema.Number),
  totalTokens: Schema.optional(Schema.Number),
  reasoningTokens: Schema.optional(Schema.Number),
  cachedInputTokens: Schema.optional(Schema.Number)
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
