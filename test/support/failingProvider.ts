import { Redacted } from "effect"
import { randomBytes } from "node:crypto"
import type { ProviderConfig, RouteConfig } from "../../src/config/AppConfig.ts"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Reply, Upstream } from "../../src/demo/upstream/types.ts"
import { UPSTREAM_API_KEY } from "./gateway.ts"

/** The route the cooldown tests ask for: the failing provider's `m1` first, the harness's own `test/m1` next. */
export const ROUTE = "smart/r"

/** A 503 at once, `Retry-After: 0`, so the target's own retries take no time. */
export const refusing = (delayMs = 0): Reply => ({ type: "error", status: 503, retryAfter: 0, delayMs })

export interface FailingProvider {
  readonly upstream: Upstream
  /** Named afresh, so a shared Redis or database holds no earlier run's count. */
  readonly id: string
  /** What `startGateway` takes to know it and route `smart/r` over it (docs/DESIGN.md §15). */
  readonly providers: ReadonlyArray<ProviderConfig>
  readonly routes: ReadonlyArray<RouteConfig>
}

/**
 * A scripted provider that refuses every request (until told otherwise), and a
 * fallback route `smart/r` that tries it before the harness's `test/m1`: for
 * the tests of cooldowns (one instance's failures seen by others, the admin
 * view, the console).
 */
export const startFailingProvider = async (reply: Reply = refusing()): Promise<FailingProvider> => {
  const upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY })
  upstream.respondWith(() => reply)
  const id = `bad${randomBytes(4).toString("hex")}`
  return {
    upstream,
    id,
    providers: [{
      id,
      type: "openai-compatible",
      baseURL: upstream.url,
      apiKey: Redacted.make(UPSTREAM_API_KEY),
      models: [{ id: "m1", name: "Bad", categories: ["chat"] }]
    }],
    routes: [{
      id: ROUTE,
      provider: "smart",
      strategy: "fallback",
      targets: [{ model: `${id}/m1`, weight: 1 }, { model: "test/m1", weight: 1 }]
    }]
  }
}
