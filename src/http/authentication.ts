import { Effect, Layer } from "effect"
import { Authentication, CurrentKey } from "../api/Authentication.ts"
import { VerifiedKey } from "./VerifiedKey.ts"

/**
 * Whether a request needs an API key: every path under /api/, read as the
 * router reads it (duplicate slashes folded, any case, %-escapes decoded), so
 * no /api/… endpoint is reached without one. Both ways in check the key
 * before routing with `ApiKeys.authenticate`: the gateway middleware (every
 * routed request) and the chat route.
 */
export const requiresKey = (url: string): boolean => {
  const path = url.split("?", 1)[0]!.replace(/\/{2,}/g, "/")
  try {
    return decodeURI(path).toLowerCase().startsWith("/api/")
  } catch {
    // Malformed escapes: the router cannot read it either; asking for a key costs nothing.
    return true
  }
}

/**
 * Hands the key the gateway middleware verified to the /api/v1 handlers.
 * Their paths all need a key (`requiresKey`), so one is always there; if it
 * is not, the request fails as a defect instead of reaching the handler.
 */
export const AuthenticationLive = Layer.succeed(
  Authentication,
  Authentication.of({
    bearer: (httpEffect) =>
      Effect.flatMap(Effect.service(VerifiedKey), (key) =>
        key === undefined
          ? Effect.die(new Error("An authenticated endpoint was routed without a verified key"))
          : Effect.provideService(httpEffect, CurrentKey, key))
  })
)
