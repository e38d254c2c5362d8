import { Cause, Effect, type Exit } from "effect"
import { type CallTokens, Metrics } from "./GatewayMetrics.ts"
import { annotateSpan, traced, Tracing } from "./Tracing.ts"

/** One attempt of a model call, as it is sent. */
export interface ModelCallFacts {
  readonly provider: string
  readonly model: string
  /** 1 for the first attempt, 2 for the first retry… */
  readonly attempt: number
  /** The messages sent: on the span only with `PARLEY_TRACE_CONTENT=true`. */
  readonly input: () => unknown
}

/** What the attempt's answer told, read when it has ended. */
export interface ModelCallReport {
  readonly tokens: CallTokens | undefined
  /** `performance.now()` at the first part of the answer, if one came. */
  readonly firstPartAt: number | undefined
  readonly finishReason: string | undefined
  /** What the model said: on the span only with `PARLEY_TRACE_CONTENT=true`. */
  readonly output: () => unknown
}

/** A failed attempt: its provider failure's tag and the provider's HTTP status, if it answered one. */
export interface FailedCall {
  readonly failure: { readonly _tag: string; readonly status?: number | undefined }
}

const failureOf = <E extends FailedCall>(exit: Exit.Exit<unknown, E>): FailedCall["failure"] | undefined => {
  if (exit._tag === "Success") return undefined
  const error = Cause.findErrorOption(exit.cause)
  return error._tag === "Some" ? error.value.failure : { _tag: "interrupted" }
}

/**
 * One attempt of a model call observed: a `chat {model}` span with the
 * OpenTelemetry GenAI attributes (when traces are on), its metrics (calls by
 * outcome, tokens, time to first token) and, when the provider failed, a
 * `warn` line with provider, model, status and attempt.
 */
export const observeModelCall = <A, E extends FailedCall, R>(
  facts: ModelCallFacts,
  report: () => ModelCallReport,
  call: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) => {
    const metrics = fiber.getRef(Metrics)
    const tracing = fiber.getRef(Tracing)
    const startedAt = performance.now()
    const ended = Effect.onExit(call, (exit) => {
      const seen = report()
      const failure = failureOf(exit)
      const firstToken = seen.firstPartAt === undefined ? undefined : (seen.firstPartAt - startedAt) / 1000
      metrics.modelCall(facts.provider, facts.model, failure?._tag ?? "ok", seen.tokens, firstToken)
      const annotated = annotateSpan(tracing, () => ({
        ...(seen.tokens?.input === undefined ? {} : { "gen_ai.usage.input_tokens": seen.tokens.input }),
        ...(seen.tokens?.output === undefined ? {} : { "gen_ai.usage.output_tokens": seen.tokens.output }),
        ...(seen.finishReason === undefined ? {} : { "gen_ai.response.finish_reasons": [seen.finishReason] }),
        ...(failure === undefined ? {} : { "error.type": failure._tag }),
        ...(tracing.content ? { "gen_ai.output.messages": JSON.stringify(seen.output()) } : {})
      }))
      if (failure === undefined || failure._tag === "interrupted") return annotated
      return Effect.andThen(
        annotated,
        Effect.logWarning("provider failure", {
          provider: facts.provider,
          model: facts.model,
          status: failure.status ?? null,
          attempt: facts.attempt,
          outcome: failure._tag
        })
      )
    })
    return traced(tracing, ended, `chat ${facts.model}`, () => ({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": facts.provider,
      "gen_ai.request.model": facts.model,
      "parley.attempt": facts.attempt,
      ...(tracing.content ? { "gen_ai.input.messages": JSON.stringify(facts.input()) } : {})
    }), "client")
  })
