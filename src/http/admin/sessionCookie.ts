import type { HttpServerRequest } from "effect/http"
import { SESSION_COOKIE } from "../../api/AdminAuthentication.ts"
import { SESSION_SECONDS } from "../../auth/Sessions.ts"

/**
 * The console's session cookie (docs/DESIGN.md §6): HttpOnly (no script
 * reads it), SameSite=Strict (no other site sends it), scoped to /admin, 12 h,
 * and Secure when the request came over HTTPS through a proxy.
 */
const attributes = (request: HttpServerRequest.HttpServerRequest, maxAge: number) => {
  const https = request.headers["x-forwarded-proto"]?.split(",", 1)[0]?.trim().toLowerCase() === "https"
  return `Path=/admin; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${https ? "; Secure" : ""}`
}

export const sessionCookie = (request: HttpServerRequest.HttpServerRequest, token: string): string =>
  `${SESSION_COOKIE}=${token}; ${attributes(request, SESSION_SECONDS)}`

export const clearedCookie = (request: HttpServerRequest.HttpServerRequest): string =>
  `${SESSION_COOKIE}=; ${attributes(request, 0)}`
