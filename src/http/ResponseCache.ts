import { Clock, Effect } from "effect"

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
