import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import type { ApiKey } from "../domain/ApiKey.ts"

/** The API key that made the current request. */
export class CurrentKey extends Context.Service<CurrentKey, ApiKey>()("parley/api/CurrentKey") {}

/**
 * `Authorization: Bearer <key>`. The scheme is written `bearer` as the IANA
 * registry lists it: the docs page (Scalar) matches it in lower case and,
 * given `Bearer`, sent `Basic username:password` in its examples.
 * Credentials are compared case-insensitively either way (RFC 9110 §11.1).
 */
export const ApiKeyBearer = HttpApiSecurity.http({ scheme: "bearer" }).pipe(
  HttpApiSecurity.annotateMerge(OpenApi.annotations({
    format: "parley API key",
    description: "An API key from `npx parley keys create`, sent as `Authorization: Bearer <key>`."
  }))
)

/**
 * Bearer-key authentication for every /api/v1 endpoint. The gateway also
 * authenticates before routing (so unknown paths answer 401, not 404); this
 * middleware hands the verified key to the handlers.
 */
export class Authentication extends HttpApiMiddleware.Service<Authentication, {
  provides: CurrentKey
  requires: never
}>()("parley/api/Authentication", {
  security: { bearer: ApiKeyBearer }
}) {}
