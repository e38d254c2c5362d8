import { HttpServerResponse } from "effect/http"

/** The success envelope of the API (`{success: true, data}`), never cached: it may hold a secret. */
export const ok = (data: unknown, status = 200) =>
  HttpServerResponse.jsonUnsafe({ success: true, data }, { status, headers: { "cache-control": "no-store" } })
