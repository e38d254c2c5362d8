import { Effect } from "effect"
import type { Principal } from "../../api/AdminAuthentication.ts"
import type { ProviderView, RouteView } from "../../domain/views.ts"
import type { ModelRegistry } from "../../models/ModelRegistry.ts"
import type { ModelRoute } from "../../models/ModelRoute.ts"
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
        const routes: Array<{ readonly id: string; readonly route: ModelRoute }> = []
        for (const entry of registry.catalog) {
          const route = registry.find(entry.id)?.route
          if (route === undefined) models.set(entry.provider, [...(models.get(entry.provider) ?? []), entry.id])
          else routes.push({ id: entry.id, route })
        }
        // One read of the shared counts for every provider: a target shows its provider's state as of that read.
        const states = yield* cooldowns.states([...models.keys()])
        const providers = new Map(states.map((state): [string, ProviderView] => [state.provider, {
          id: state.provider,
          models: models.get(state.provider) ?? [],
          failures: state.failures,
          cooledUntil: state.until === null ? null : new Date(state.until).toISOString()
        }]))
        return ok({
          providers: [...providers.values()],
          routes: routes.map(({ id, route }): RouteView => ({
            id,
            strategy: route.strategy,
            targets: route.targets.map(({ target, weight }) => {
              const provider = providers.get(target.provider)
              return {
                model: target.id,
                weight,
                provider: target.provider,
                failures: provider?.failures ?? 0,
                cooledUntil: provider?.cooledUntil ?? null
              }
            }),
            firstChunkTimeoutMs: route.firstChunkTimeoutMs ?? null
          }))
        })
      })
    )
})
