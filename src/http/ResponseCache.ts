import { Clock, Effect } from "effect"
import { HttpServerResponse } from "effect/http"

/**
 * A small time-bounded cache of encoded response bodies. GET /models and
 * /tools depend only on the key's allow-list, so many keys share one entry
 * and the hot path neither filters nor serializes again.
 */
export const makeResponseCache = (ttlMillis: number, maxEntries = 1_000) => {
  const entries = new Map<string, { readonly body: string; readonly expires: number }>()
  const get = (cacheKey: string, build: () => string): Effect.Effect<string> =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const hit = entries.get(cacheKey)
      if (hit !== undefined && hit.expires > now) return hit.body
      if (entries.size >= maxEntries) entries.clear()
      const body = build()
      entries.set(cacheKey, { body, expires: now + ttlMillis })
      return body
    })
  return { get, clear: Effect.sync(() => entries.clear()) }
}

/** A cached body as JSON the client may keep too: `private`, for it is one key's. */
export const cachedJson = (body: string, maxAgeSeconds = 3600) =>
  HttpServerResponse.text(body, {
    contentType: "application/json",
    headers: { "cache-control": `private, max-age=${maxAgeSeconds}` }
  })
