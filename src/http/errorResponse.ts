import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { type ApiFailure, statusOf } from "../domain/errors.ts"
import { CorrelationId } from "./CorrelationId.ts"

/**
 * Renders a failure as the spec's error body. 401s carry no correlation id;
 * every other error carries it in the body (the gateway middleware adds the
 * header to every answer but 401s).
 */
export const errorResponse = (failure: ApiFailure): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.map(Effect.service(CorrelationId), (correlationId) => renderError(failure, correlationId))

export const renderError = (failure: ApiFailure, correlationId: string): HttpServerResponse.HttpServerResponse => {
  const statusCode = statusOf[failure._tag]
  if (failure._tag === "Unauthorized") {
    return HttpServerResponse.jsonUnsafe({ error: failure._tag, message: failure.message, statusCode }, { status: statusCode })
  }
  const body: Record<string, unknown> = { error: failure._tag, message: failure.message, statusCode, correlationId }
  if (failure.details !== undefined) body.details = failure.details
  return HttpServerResponse.jsonUnsafe(body, { status: statusCode })
}

/** The 500 body for anything unexpected: no internals reach the client. */
export const unexpectedError = (correlationId: string): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(
    {
      error: "InternalServerError",
      message: "An unexpected error occurred",
      statusCode: 500,
      correlationId,
      details: { error: "An unexpected error occurred" }
    },
    { status: 500 }
  )
