import { Effect } from "effect"
import type { Principal } from "../../api/AdminAuthentication.ts"
import type { ProviderView, RouteView } from "../../domain/views.ts"
import type { ModelRegistry } from "../../models/ModelRegistry.ts"
import type { ProviderCooldowns } from "../../models/ProviderCooldowns.ts"
import { requireOperator } from "./access.ts"
import { ok } from "./adminViews.ts"

/** /admin/v1/providers: the operator's alone, as the config it shows is (docs/DESIGN.md §15). */
export const makeProviderAdmin = (registry: ModelRegistry["Service"], cooldowns: ProviderCooldowns["Service"]) => ({
  list: (principal: Principal) =>
    Effect.andThen(
      requireOperator(principal),
      Effect.gen(function*() {
        const models = new Map<string, Array<string>>()
        const routes: Array<RouteView> = []
        for (const entry of registry.catalog) {
          const route = registry.find(entry.id)?.route
          if (route === undefined) {
            models.set(entry.provider, [...(models.get(entry.provider) ?? []), entry.id])
            continue
          }
          routes.push({
            id: entry.id,
            strategy: route.strategy,
            targets: route.targets.map(({ target, weight }) => ({ model: target.id, weight })),
            firstChunkTimeoutMs: route.firstChunkTimeoutMs ?? null
          })
        }
        const states = yield* cooldowns.states([...models.keys()])
        const providers = states.map((state): ProviderView => ({
          id: state.provider,
          models: models.get(state.provider) ?? [],
          failures: state.failures,
          cooledUntil: state.until === null ? null : new Date(state.until).toISOString()
        }))
        return ok({ providers, routes })
      })
    )
})
