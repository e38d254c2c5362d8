import { Cause, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { CorrelationId } from "./CorrelationId.ts"
import { type ApiFailure, wireError } from "./errorTable.ts"

export interface ErrorBody {
  readonly status: number
  readonly body: Record<string, unknown>
  /** `Retry-After` of a limit refusal (docs/DESIGN.md §11). */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/**
 * The spec's error body for a failure. 401s carry no correlation id; every
 * other error carries it in the body (and in the `X-Correlation-Id` header).
 */
export const errorBody = (failure: ApiFailure, correlationId: string): ErrorBody => {
  const { details, error, message, status } = wireError(failure)
  if (status === 401) return { status, body: { error, message, statusCode: status } }
  const body: Record<string, unknown> = { error, message, statusCode: status, correlationId }
  if (details !== undefined) body.details = details
  if (failure._tag === "LimitExceeded") {
    return { status, body, headers: { "retry-after": String(failure.retryAfterSeconds) } }
  }
  return { status, body }
}

/** What a client is told of a failure nothing expected: no internals reach it. */
export const UNEXPECTED_MESSAGE = "An unexpected error occurred"

/** The 500 body for anything unexpected. */
export const unexpectedBody = (correlationId: string): ErrorBody => ({
  status: 500,
  body: {
    error: "InternalServerError",
    message: UNEXPECTED_MESSAGE,
    statusCode: 500,
    correlationId,
    details: { error: UNEXPECTED_MESSAGE }
  }
})

/** An error body, in whichever envelope, as the routed response. */
export const errorBodyResponse = ({ body, headers, status }: ErrorBody): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(body, { status, ...(headers === undefined ? {} : { headers }) })

export const renderError = (failure: ApiFailure, correlationId: string): HttpServerResponse.HttpServerResponse =>
  errorBodyResponse(errorBody(failure, correlationId))

export const unexpectedError = (correlationId: string): HttpServerResponse.HttpServerResponse =>
  errorBodyResponse(unexpectedBody(correlationId))

/** Renders a failure of a routed handler, with the request's correlation id. */
export const errorResponse = (failure: ApiFailure): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.map(Effect.service(CorrelationId), (correlationId) => renderError(failure, correlationId))

/** Logs a failure nothing expected: the rendered cause (messages and stacks), never the request, whose headers hold the key. */
export const logUnexpected = (cause: Cause.Cause<unknown>, correlationId: string): Effect.Effect<void> =>
  Effect.logError("Unhandled request failure", cause).pipe(Effect.annotateLogs({ correlationId }))
