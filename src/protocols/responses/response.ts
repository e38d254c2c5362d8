import type { RunSummary, Usage } from "../../agent/RunSummary.ts"
import type { ResponsesWire } from "./decode.ts"

/** The response's id, `resp_` and the request's correlation id, so that a client's logs meet parley's. */
export const responseId = (correlationId: string) => `resp_${correlationId}`

export const usageOf = (usage: Usage) => {
  const input = usage.inputTokens ?? 0
  const output = usage.outputTokens ?? 0
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? input + output
  }
}

/**
 * How a run ended, in the response's words (docs/DESIGN.md §14): a call of
 * the client's tools is `completed` (the client runs it and asks again); the
 * model's output limit and parley's own (steps, time, budget) are
 * `incomplete` for `max_output_tokens`, the one reason OpenAI's clients know
 * for an answer cut short; the provider's content filter `content_filter`;
 * a background run stopped by `POST /v1/responses/{id}/cancel` `cancelled`.
 */
export const outcomeOf = (summary: RunSummary, calledClientTools: boolean) => {
  if (calledClientTools) return { status: "completed", incomplete_details: null }
  switch (summary.finishReason) {
    case "length":
    case "budget":
    case "step-limit":
    case "timeout":
      return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }
    case "content-filter":
      return { status: "incomplete", incomplete_details: { reason: "content_filter" } }
    case "stopped":
      return { status: "cancelled", incomplete_details: null }
    default:
      return { status: "completed", incomplete_details: null }
  }
}

/** The prefix of the answer's item ids: a stored response's random part, else the correlation id. */
export const itemPrefix = (correlationId: string, wire: ResponsesWire) => wire.stored?.prefix ?? correlationId

/**
 * The response object as the stream's first events and the whole answer
 * carry it: OpenAI's fields, the request's settings repeated (`store` and
 * `previous_response_id` among them). A stored response's id is its own
 * (./stored.ts), else `resp_` and the correlation id.
 */
export const responseShell = (correlationId: string, wire: ResponsesWire, createdAt: number) => ({
  id: wire.stored?.id ?? responseId(correlationId),
  object: "response",
  created_at: createdAt,
  status: "in_progress",
  error: null as unknown,
  incomplete_details: null as unknown,
  model: wire.model,
  output: [] as ReadonlyArray<unknown>,
  service_tier: "default",
  usage: null as unknown,
  ...wire.echo
})
