import { Cause, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ContractRoute } from "../api/contractRoutes.ts"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { requestObserver } from "../observability/observeRequest.ts"
import { isAdminPath, makeAdminAuthenticator, VerifiedPrincipal } from "./admin/adminAuthentication.ts"
import { allowedMethods } from "./allowedMethods.ts"
import { requiresKey } from "./authentication.ts"
import { CorrelationId, correlationIdFor } from "./CorrelationId.ts"
import { logUnexpected, renderError, unexpectedError } from "./errorResponse.ts"
import type { ApiFailure } from "./errorTable.ts"
import { MethodNotAllowed, RouteNotFound } from "./requestErrors.ts"
import { ServerDrain } from "./ServerDrain.ts"
import { VerifiedKey } from "./VerifiedKey.ts"

const isRouteNotFound = (cause: Cause.Cause<unknown>) =>
  cause.reasons.some((reason) =>
    Cause.isFailReason(reason) &&
    typeof reason.error === "object" && reason.error !== null &&
    (reason.error as { reason?: { _tag?: string } }).reason?._tag === "RouteNotFound"
  )

/**
 * An error the middleware answers itself (before routing, or at shutdown);
 * a 401 carries no correlation id (docs/DESIGN.md §3.7), others do.
 */
const refused = (failure: ApiFailure, correlationId: string) => {
  const response = renderError(failure, correlationId)
  return response.status === 401 ? response : HttpServerResponse.setHeader(response, "x-correlation-id", correlationId)
}

/** No route for the request: 405 with `Allow` when the path answers other methods, else 404. */
const noRoute = (
  methodsOf: (path: string) => ReadonlyArray<string>,
  method: string,
  url: string,
  correlationId: string
) => {
  const path = url.split("?", 1)[0]!
  const allowed = methodsOf(path)
  if (allowed.length === 0) return renderError(new RouteNotFound({ method, path }), correlationId)
  const response = renderError(new MethodNotAllowed({ method, path, allowed }), correlationId)
  return HttpServerResponse.setHeader(response, "allow", allowed.join(", "))
}

/**
 * Runs before routing on every routed request: authenticates /api/… with an
 * API key and /admin/… with the operator token or a console session (so an
 * unknown path with bad credentials is 401, with good ones 404), assigns the
 * correlation id, and turns anything unhandled into the spec's error body.
 * A request still running when the shutdown grace is over is stopped and
 * answers that the server is shutting down (docs/DESIGN.md §8), like the
 * chat route, rather than being cut off with its scope.
 * `routes` are every route the gateway serves, chat included, for 405s.
 */
export const gatewayMiddleware = (routes: ReadonlyArray<ContractRoute>) =>
  HttpRouter.middleware<{ handles: unknown }>()(
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const authenticateAdmin = yield* makeAdminAuthenticator
      const observer = yield* requestObserver
      const drain = yield* ServerDrain
      const methodsOf = allowedMethods(routes)
      return (httpEffect) =>
        Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
          const correlationId = correlationIdFor(request.headers["x-correlation-id"])
          const log = observer.start(correlationId, request.method, request.url)
          const answer = Effect.gen(function*() {
            let routed = httpEffect.pipe(Effect.provideService(CorrelationId, correlationId))
            if (requiresKey(request.url)) {
              const verified = yield* Effect.result(keys.authenticate(request.headers.authorization))
              if (verified._tag === "Failure") {
                log.outcome = verified.failure._tag
                return refused(verified.failure, correlationId)
              }
              log.keyed(verified.success)
              routed = routed.pipe(Effect.provideService(VerifiedKey, verified.success))
            } else if (isAdminPath(request.url)) {
              const verified = yield* Effect.result(authenticateAdmin(request))
              if (verified._tag === "Failure") {
                log.outcome = verified.failure._tag
                return refused(verified.failure, correlationId)
              }
              routed = routed.pipe(Effect.provideService(VerifiedPrincipal, verified.success))
            }
            const response = yield* routed.pipe(
              Effect.catchCause((cause) => {
                if (isRouteNotFound(cause)) {
                  return Effect.succeed(noRoute(methodsOf, request.method, request.url, correlationId))
                }
                if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
                log.outcome = "unexpected"
                return Effect.as(logUnexpected(cause, correlationId), unexpectedError(correlationId))
              })
            )
            // A 401 carries no correlation id, wherever it was decided (docs/DESIGN.md §3.7).
            return response.status === 401
              ? response
              : HttpServerResponse.setHeader(response, "x-correlation-id", correlationId)
          })
          // The grace is over (docs/DESIGN.md §8): the handler is interrupted, the client told so.
          const shutDown = Effect.catch(drain.cancelled, (failure) => {
            log.outcome = failure._tag
            return Effect.succeed(refused(failure, correlationId))
          })
          return observer.observe(
            log,
            Effect.raceFirst(answer, shutDown),
            (exit) => exit._tag === "Success" ? exit.value.status : 499
          )
        })
    }),
    { global: true }
  )
