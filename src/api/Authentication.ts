import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import type { ApiKey } from "../domain/ApiKey.ts"

/** The API key that made the current request. */
export class CurrentKey extends Context.Service<CurrentKey, ApiKey>()("parley/api/CurrentKey") {}

/**
 * Bearer-key authentication for every /api/v1 endpoint. The gateway also
 * authenticates before routing (so unknown paths answer 401, not 404); this
 * middleware hands the verified key to the handlers.
 */
export class Authentication extends HttpApiMiddleware.Service<Authentication, {
  provides: CurrentKey
  requires: never
}>()("parley/api/Authentication", {
  security: { bearer: HttpApiSecurity.bearer }
}) {}
