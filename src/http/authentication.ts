import { Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { Authentication, CurrentKey } from "../api/Authentication.ts"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { errorResponse } from "./errorResponse.ts"
import { VerifiedKey } from "./VerifiedKey.ts"

/**
 * Hands the verified key to the handlers. The gateway has normally verified
 * it already; when it has not (a path it did not see as /api/…), the key is
 * verified here, so no route is reachable without one.
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    return Authentication.of({
      bearer: (httpEffect) =>
        Effect.gen(function*() {
          const verified = yield* Effect.service(VerifiedKey)
          if (verified !== undefined) return yield* Effect.provideService(httpEffect, CurrentKey, verified)
          const request = yield* HttpServerRequest.HttpServerRequest
          return yield* keys.authenticate(request.headers.authorization).pipe(
            Effect.matchEffect({
              onFailure: errorResponse,
              onSuccess: (key) => Effect.provideService(httpEffect, CurrentKey, key)
            })
          )
        })
    })
  })
)
