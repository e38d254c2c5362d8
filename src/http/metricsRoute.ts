import { Effect, Redacted } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { InvalidAuthorizationFormat, MissingAuthorization } from "../auth/authErrors.ts"
import { hashSecret, sameHash } from "../auth/secrets.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { ModelRegistry } from "../models/ModelRegistry.ts"
import { ProviderCooldowns } from "../models/ProviderCooldowns.ts"
import { Metrics, PROMETHEUS_CONTENT_TYPE } from "../observability/GatewayMetrics.ts"
import { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import { renderError } from "./errorResponse.ts"
import { InvalidMetricsToken } from "./requestErrors.ts"

const bearer = /^Bearer +(\S+) *$/i

/**
 * GET /metrics: Prometheus text (docs/DESIGN.md §8), outside /api/ so no API
 * key is asked for. It asks for `PARLEY_METRICS_TOKEN` or the admin token as
 * a bearer token, unless `PARLEY_METRICS_PUBLIC=true`; refused, it answers the
 * spec's 401 body. The tokens are compared by hash, in constant time.
 */
export const MetricsRoute = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const { adminToken, observability: config } = yield* AppConfig
    const cooldowns = yield* ProviderCooldowns
    const registry = yield* ModelRegistry
    const metrics = yield* Metrics
    const sandboxes = yield* SandboxProvider
    const accepted = [config.metricsToken, adminToken].flatMap((token) =>
      token === undefined ? [] : [hashSecret(Redacted.value(token))]
    )

    const refusal = (authorization: string | undefined) => {
      if (config.metricsPublic) return undefined
      if (authorization === undefined || authorization.trim() === "") return new MissingAuthorization()
      const token = bearer.exec(authorization)?.[1]
      if (token === undefined) return new InvalidAuthorizationFormat()
      const hash = hashSecret(token)
      return accepted.some((known) => sameHash(known, hash)) ? undefined : new InvalidMetricsToken()
    }

    const scrape = Effect.gen(function*() {
      const held = yield* sandboxes.list
      metrics.sandboxes({ active: held.length })
      const routed = registry.catalog.flatMap((entry) =>
        registry.find(entry.id)?.route?.targets.map(({ target }) => target.provider) ?? []
      )
      const now = Date.now()
      const states = yield* cooldowns.states([...new Set(routed)])
      metrics.cooldowns(
        new Map(states.map((state) => [state.provider, Math.max(0, ((state.until ?? now) - now) / 1000)]))
      )
      const text = yield* Effect.promise(() => metrics.render())
      return HttpServerResponse.text(text, { contentType: PROMETHEUS_CONTENT_TYPE })
    })

    yield* router.add("GET", "/metrics", (request: HttpServerRequest.HttpServerRequest) => {
      const refused = refusal(request.headers.authorization)
      return refused === undefined ? scrape : Effect.succeed(renderError(refused, ""))
    })
  })
)
