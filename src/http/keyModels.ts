import { Effect } from "effect"
import { allowsModel, type ApiKey } from "../domain/ApiKey.ts"
import { type ModelEntry, ModelRegistry } from "../models/ModelRegistry.ts"
import { cachedJson, makeResponseCache } from "./ResponseCache.ts"

const HOUR_MS = 3_600_000

/**
 * The models a key may use, in the words of one door (GET /api/v1/models,
 * GET /v1/models): `render` writes the answer's JSON from the catalog entries
 * the key's allow-list admits, once per allow-list an hour. The bodies are kept
 * by the (effective) allow-list, so a key or account whose lists change picks
 * another entry; a SIGHUP reload replaces the catalog (docs/DESIGN.md §8), and
 * the bodies built from the old one go with it.
 */
export const makeKeyModels = (render: (models: ReadonlyArray<ModelEntry>) => unknown) =>
  Effect.gen(function*() {
    const registry = yield* ModelRegistry
    const cache = makeResponseCache(HOUR_MS)
    let cachedCatalog = registry.catalog
    return (key: ApiKey) =>
      Effect.suspend(() => {
        const catalog = registry.catalog
        const swapped = catalog !== cachedCatalog
        cachedCatalog = catalog
        const body = cache.get(
          key.allowedModels.join("\n"),
          () => JSON.stringify(render(catalog.filter((entry) => allowsModel(key, entry.id))))
        )
        return Effect.map(swapped ? Effect.andThen(cache.clear, body) : body, (json) => cachedJson(json))
      })
  })
