import { Cause, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { requestObserver } from "../observability/observeRequest.ts"
import { requiresKey } from "./authentication.ts"
import { CorrelationId, correlationIdFor } from "./CorrelationId.ts"
import { logUnexpected, renderError, unexpectedError } from "./errorResponse.ts"
import { RouteNotFound } from "./requestErrors.ts"
import { VerifiedKey } from "./VerifiedKey.ts"

const isRouteNotFound = (cause: Cause.Cause<unknown>) =>
  cause.reasons.some((reason) =>
    Cause.isFailReason(reason) &&
    typeof reason.error === "object" && reason.error !== null &&
    (reason.error as { reason?: { _tag?: string } }).reason?._tag === "RouteNotFound"
  )

/**
 * Runs before routing on every routed request: authenticates /api/… (so an
 * unknown path with a bad key is 401, with a good key 404), assigns the
 * correlation id, and turns anything unhandled into the spec's error body.
 */
export const Gateway = HttpRouter.middleware<{ handles: unknown }>()(
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const observer = yield* requestObserver
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
              return renderError(verified.failure, "")
            }
            log.keyed(verified.success)
            routed = routed.pipe(Effect.provideService(VerifiedKey, verified.success))
          }
          const response = yield* routed.pipe(
            Effect.catchCause((cause) => {
              if (isRouteNotFound(cause)) {
                const notFound = new RouteNotFound({ method: request.method, path: request.url.split("?")[0]! })
                return Effect.succeed(renderError(notFound, correlationId))
              }
              if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
              log.outcome = "unexpected"
              return Effect.as(logUnexpected(cause, correlationId), unexpectedError(correlationId))
            })
          )
          return HttpServerResponse.setHeader(response, "x-correlation-id", correlationId)
        })
        return observer.observe(log, answer, (exit) => exit._tag === "Success" ? exit.value.status : 499)
      })
  }),
  { global: true }
)
