import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"

/**
 * Who is calling /admin/v1 (docs/DESIGN.md §6): the operator (the
 * `PARLEY_ADMIN_TOKEN` bearer), who may do everything, or an account holder
 * signed in to the console, who sees only their own account.
 */
export type Principal =
  | { readonly _tag: "Operator" }
  | { readonly _tag: "Account"; readonly accountId: string }

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("parley/api/CurrentPrincipal") {}

/** The console's session cookie (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = "parley_session"

/**
 * Operator token or console session for /admin/v1. The gateway checks both
 * before routing (so unknown /admin paths answer 401 too, and unsafe methods
 * of a session need `X-CSRF-Token`); this middleware hands the verified
 * principal to the handlers.
 */
export class AdminAuthentication extends HttpApiMiddleware.Service<AdminAuthentication, {
  provides: CurrentPrincipal
  requires: never
}>()("parley/api/AdminAuthentication", {
  security: {
    operator: HttpApiSecurity.bearer,
    session: HttpApiSecurity.apiKey({ in: "cookie", key: SESSION_COOKIE })
  }
}) {}
