import { Cause, Effect } from "effect"
import type { HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiKeys } from "../auth/ApiKeys.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import { CorrelationId } from "./CorrelationId.ts"
import { type ErrorBody, errorBodyResponse, logUnexpected } from "./errorResponse.ts"
import type { ApiFailure } from "./errorTable.ts"

/**
 * A router route of a standard door (docs/DESIGN.md §14), not under /api/,
 * so it checks the key itself, from `Authorization: Bearer` or `x-api-key`,
 * and words every failure in its protocol's envelope (`errorBody`); the
 * gateway middleware still gives the correlation id, logs and metrics.
 */
export const makeKeyedRoute = (errorBody: (failure: ApiFailure | undefined) => ErrorBody) =>
  Effect.map(Effect.service(ApiKeys), (keys) =>
  <R>(
    request: HttpServerRequest.HttpServerRequest,
    answer: (key: ApiKey) => Effect.Effect<HttpServerResponse.HttpServerResponse, ApiFailure, R>
  ) =>
    keys.authenticate(request.headers.authorization, request.headers["x-api-key"]).pipe(
      Effect.flatMap(answer),
      Effect.catch((failure) => Effect.succeed(errorBodyResponse(errorBody(failure)))),
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause) ?
          Effect.failCause(cause) :
          Effect.flatMap(
            Effect.service(CorrelationId),
            (id) => Effect.as(logUnexpected(cause, id), errorBodyResponse(errorBody(undefined)))
          )
      )
    ))
