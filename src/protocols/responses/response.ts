import type { RunSummary, Usage } from "../../agent/RunSummary.ts"
import { jsonTemplate } from "../jsonTemplate.ts"
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

/** The response object's own fields, in OpenAI's order; the request's settings follow them (`responseShell`). */
const responseFields = (
  id: string,
  created_at: number,
  completed_at: number | null,
  status: string,
  error: unknown,
  incomplete_details: unknown,
  model: string,
  output: ReadonlyArray<unknown>,
  usage: unknown
) => ({
  id,
  object: "response",
  created_at,
  completed_at,
  status,
  error,
  incomplete_details,
  model,
  output,
  service_tier: "default",
  usage
})

/** Now, as the response's timestamps are: whole seconds since the epoch. */
export const unixSeconds = () => Math.floor(Date.now() / 1000)

/** The response as a stream opens it, before its run ends. */
export const OPENING: Ending = {
  status: "in_progress",
  completed_at: null,
  error: null,
  incomplete_details: null,
  usage: null
}

/**
 * The response as its run ended: its outcome, its usage, and when it
 * completed (`completed_at`, the specification's: null unless `completed`).
 */
export const endingOf = (summary: RunSummary, calledClientTools: boolean): Ending => {
  const outcome = outcomeOf(summary, calledClientTools)
  return {
    ...outcome,
    completed_at: outcome.status === "completed" ? unixSeconds() : null,
    error: null,
    usage: usageOf(summary.usage)
  }
}

/** The answer's response id: a stored response's own (./stored.ts), else `resp_` and the correlation id. */
const answerId = (correlationId: string, wire: ResponsesWire) => wire.stored?.id ?? responseId(correlationId)

/**
 * The response object as the stream's first events and the whole answer
 * carry it: OpenAI's fields, the request's settings repeated (`store` and
 * `previous_response_id` among them).
 */
export const responseShell = (correlationId: string, wire: ResponsesWire, createdAt: number) => ({
  ...responseFields(
    answerId(correlationId, wire),
    createdAt,
    OPENING.completed_at,
    OPENING.status,
    OPENING.error,
    OPENING.incomplete_details,
    wire.model,
    [],
    OPENING.usage
  ),
  ...wire.echo
})

/**
 * The response object's JSON text with the fields a stream changes filled
 * in, as `responseShell` and the ending would stringify: its own fields
 * from a template, its request's settings stringified once (no setting is
 * named as one of its own fields, so the spread adds members). No shell
 * object is built: a stream needs only its text (BENCHMARKS.md).
 */
export const responseJson = (correlationId: string, wire: ResponsesWire, createdAt: number) => {
  const [id, model] = [JSON.stringify(answerId(correlationId, wire)), JSON.stringify(wire.model)]
  const rest = settingsText(wire.echo)
  return (ending: Ending, output: ReadonlyArray<string>) =>
    fieldsJson.fill(
      id,
      `${createdAt}`,
      JSON.stringify(ending.completed_at),
      JSON.stringify(ending.status),
      JSON.stringify(ending.error),
      JSON.stringify(ending.incomplete_details),
      model,
      `[${output.join(",")}]`,
      JSON.stringify(ending.usage)
    ) + rest
}

// The request's settings after the response's own fields; kept for the frozen echo most requests share (./decode.ts).
const settingsTexts = new WeakMap<object, string>()
const settingsText = (echo: Readonly<Record<string, unknown>>): string => {
  const kept = settingsTexts.get(echo)
  if (kept !== undefined) return kept
  const settings = JSON.stringify(echo)
  const text = settings === "{}" ? "}" : `,${settings.slice(1)}`
  if (Object.isFrozen(echo)) settingsTexts.set(echo, text)
  return text
}

/** The fields of the response that change as its stream goes (`output` is the items'). */
export interface Ending {
  readonly status: string
  readonly completed_at: number | null
  readonly error: unknown
  readonly incomplete_details: unknown
  readonly usage: unknown
}

const fieldsJson = jsonTemplate(responseFields, { open: true })
