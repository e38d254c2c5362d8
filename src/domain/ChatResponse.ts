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

/**
 * Why a run ended (docs/DESIGN.md §3.15): the model's last finish reason or
 * parley's own limit. `error` ends only a stream (a JSON answer is then an
 * HTTP error); `interrupted` is the AI SDK's, for providers that report it.
 */
export const FinishReason = Schema.Literals([
  "stop",
  "length",
  "content-filter",
  "tool-calls",
  "other",
  "error",
  "interrupted",
  "step-limit",
  "timeout",
  "approval-required",
  "budget",
  "stopped"
]).annotate({
  description: "The model's last finish reason, or parley's own (`step-limit`, `timeout`, `approval-required`: " +
    "a tool call waits for a person's approval; `budget`: the next step would pass a token or cost budget; `stopped`: a client stopped the run, " +
    "POST /api/v1/chat/{id}/stop)."
})
export type FinishReason = typeof FinishReason.Type

/** The non-streaming answer of POST /chat (docs/DESIGN.md §3.4 and §3.15 add `finished` and `finishReason`). */
export const ChatResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    messages: Schema.Array(Schema.Unknown).annotate({
      description: "The input history plus the assistant's UIMessage (text, reasoning and dynamic-tool parts)."
    }),
    usage: Usage,
    tools: ToolUsage,
    finished: Schema.Boolean.annotate({
      description:
        "false when a limit ended the run, a tool call waits for approval, or the model's output limit (`length`) cut its answer."
    }),
    finishReason: FinishReason
  })
}).annotate({ identifier: "ChatResponse" })
