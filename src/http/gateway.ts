import { Cause, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { isAdminPath, makeAdminAuthenticator, VerifiedPrincipal } from "./admin/adminAuthentication.ts"
import { requiresKey } from "./authentication.ts"
import { CorrelationId, correlationIdFor } from "./CorrelationId.ts"
import { logUnexpected, renderError, unexpectedError } from "./errorResponse.ts"
import type { ApiFailure } from "./errorTable.ts"
import { RouteNotFound } from "./requestErrors.ts"
import { VerifiedKey } from "./VerifiedKey.ts"

const isRouteNotFound = (cause: Cause.Cause<unknown>) =>
  cause.reasons.some((reason) =>
    Cause.isFailReason(reason) &&
    typeof reason.error === "object" && reason.error !== null &&
    (reason.error as { reason?: { _tag?: string } }).reason?._tag === "RouteNotFound"
  )

/** An error before routing; a 401 carries no correlation id (docs/DESIGN.md §3.7), others do. */
const refused = (failure: ApiFailure, correlationId: string) => {
  const response = renderError(failure, correlationId)
  return response.status === 401 ? response : HttpServerResponse.setHeader(response, "x-correlation-id", correlationId)
}

/**
 * Runs before routing on every routed request: authenticates /api/… with an
 * API key and /admin/… with the operator token or a console session (so an
 * unknown path with bad credentials is 401, with good ones 404), assigns the
 * correlation id, and turns anything unhandled into the spec's error body.
 */
export const Gateway = HttpRouter.middleware<{ handles: unknown }>()(
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const authenticateAdmin = yield* makeAdminAuthenticator
    return (httpEffect) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const correlationId = correlationIdFor(request.headers["x-correlation-id"])
        let routed = httpEffect.pipe(Effect.provideService(CorrelationId, correlationId))
        if (requiresKey(request.url)) {
          const verified = yield* Effect.result(keys.authenticate(request.headers.authorization))
          if (verified._tag === "Failure") return refused(verified.failure, correlationId)
          routed = routed.pipe(Effect.provideService(VerifiedKey, verified.success))
        } else if (isAdminPath(request.url)) {
          const verified = yield* Effect.result(authenticateAdmin(request))
          if (verified._tag === "Failure") return refused(verified.failure, correlationId)
          routed = routed.pipe(Effect.provideService(VerifiedPrincipal, verified.success))
        }
        const response = yield* routed.pipe(
          Effect.catchCause((cause) => {
            if (isRouteNotFound(cause)) {
              const notFound = new RouteNotFound({ method: request.method, path: request.url.split("?")[0]! })
              return Effect.succeed(renderError(notFound, correlationId))
            }
            if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
            return Effect.as(logUnexpected(cause, correlationId), unexpectedError(correlationId))
          })
        )
        // A 401 carries no correlation id, wherever it was decided (docs/DESIGN.md §3.7).
        return response.status === 401
          ? response
          : HttpServerResponse.setHeader(response, "x-correlation-id", correlationId)
      })
  }),
  { global: true }
)
