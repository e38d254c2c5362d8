import { Context, Effect, Layer, Redacted } from "effect"
import type { HttpServerRequest } from "effect/http"
import { createHash, timingSafeEqual } from "node:crypto"
import { AdminAuthentication, CurrentPrincipal, type Principal, SESSION_COOKIE } from "../../api/AdminAuthentication.ts"
import { CsrfRejected, InvalidAdminCredentials, MissingAdminCredentials } from "../../auth/adminErrors.ts"
import { Sessions } from "../../auth/Sessions.ts"
import { AppConfig } from "../../config/AppConfig.ts"

/** The principal the gateway verified before routing; undefined on paths that need none. */
export const VerifiedPrincipal = Context.Reference<Principal | undefined>("parley/http/VerifiedPrincipal", {
  defaultValue: () => undefined
})

const normalized = (url: string): string => {
  const path = url.split("?", 1)[0]!.replace(/\/{2,}/g, "/")
  try {
    return decodeURI(path).toLowerCase()
  } catch {
    return path.toLowerCase()
  }
}

/** Every path under /admin/, read as the router reads it (see `requiresKey`). */
export const isAdminPath = (url: string): boolean => normalized(url).startsWith("/admin/")

/** Sign-in is the one admin route that needs no credentials. */
const isSignIn = (method: string, url: string) =>
  method === "POST" && normalized(url).replace(/\/$/, "") === "/admin/v1/session"

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

const bearer = /^Bearer +(\S+) *$/i

// Digests first, so the comparison takes the same time whatever the lengths.
const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(
    createHash("sha256").update(given).digest(),
    createHash("sha256").update(expected).digest()
  )

/**
 * Who may call /admin/v1 (docs/DESIGN.md §6), checked before routing: the
 * operator's `PARLEY_ADMIN_TOKEN` bearer (compared in constant time), or a
 * console session cookie, whose unsafe requests also need `X-CSRF-Token`.
 * Any other bearer, API keys (`pk_…`) included, is refused: keys never reach
 * the admin API.
 */
export const makeAdminAuthenticator = Effect.gen(function*() {
  const config = yield* AppConfig
  const sessions = yield* Sessions
  const adminToken = config.adminToken === undefined ? undefined : Redacted.value(config.adminToken)

  return Effect.fnUntraced(function*(request: HttpServerRequest.HttpServerRequest) {
    if (isSignIn(request.method, request.url)) return undefined
    const authorization = request.headers.authorization
    if (authorization !== undefined && authorization.trim() !== "") {
      const token = bearer.exec(authorization)?.[1]
      if (token !== undefined && adminToken !== undefined && sameSecret(token, adminToken)) {
        return { _tag: "Operator" } satisfies Principal
      }
      return yield* new InvalidAdminCredentials()
    }
    const cookie = request.cookies[SESSION_COOKIE]
    if (cookie === undefined || cookie === "") return yield* new MissingAdminCredentials()
    const session = yield* sessions.verify(cookie)
    if (!SAFE_METHODS.has(request.method) && !sessions.checkCsrf(cookie, request.headers["x-csrf-token"])) {
      return yield* new CsrfRejected()
    }
    return { _tag: "Account", accountId: session.accountId } satisfies Principal
  })
})

const withPrincipal = <A, E, R>(httpEffect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.service(VerifiedPrincipal), (principal) =>
    principal === undefined
      ? Effect.die(new Error("An admin endpoint was routed without a verified principal"))
      : Effect.provideService(httpEffect, CurrentPrincipal, principal))

/** Hands the principal the gateway verified to the admin handlers (as `AuthenticationLive` does keys). */
export const AdminAuthenticationLive = Layer.succeed(
  AdminAuthentication,
  AdminAuthentication.of({
    operator: (httpEffect) => withPrincipal(httpEffect),
    session: (httpEffect) => withPrincipal(httpEffect)
  })
)
