import { Effect } from "effect"
import { HttpRouter, type HttpServerResponse } from "effect/http"
import { allowsModel, type ApiKey } from "../../domain/ApiKey.ts"
import { makeKeyedRoute } from "../../http/keyedRoute.ts"
import { makeKeyModels } from "../../http/keyModels.ts"
import { ModelNotFound } from "../../http/requestErrors.ts"
import { cachedJson } from "../../http/ResponseCache.ts"
import { type ModelEntry, ModelRegistry } from "../../models/ModelRegistry.ts"
import { openAiErrorBody } from "./error.ts"

/**
 * Every model's `created`: parley cannot know when a provider made a model,
 * and a fixed value is the same from every instance behind a balancer and
 * after every restart (a process's start time is neither), so the kept
 * bodies and a client's own caches stay right (docs/DESIGN.md §14).
 */
const CREATED = 0

const openAiModel = (entry: ModelEntry) => ({
  id: entry.id,
  object: "model",
  created: CREATED,
  owned_by: entry.provider
})

type Answer = Effect.Effect<HttpServerResponse.HttpServerResponse, ModelNotFound, HttpRouter.RouteContext>

/**
 * GET /v1/models and GET /v1/models/{model} (docs/DESIGN.md §14): OpenAI's
 * model list and model object, of the models the key may use, every failure
 * in OpenAI's envelope; the key is checked here (../../http/keyedRoute.ts).
 * A model id holds a `/`, so the rest of the path is the id, sent as is or
 * percent-encoded (OpenAI's SDKs send `%2F`; the router decodes it).
 */
export const OpenAiModelsRoute = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const keyed = yield* makeKeyedRoute(openAiErrorBody)
    const registry = yield* ModelRegistry
    const list = yield* makeKeyModels((models) => ({ object: "list", data: models.map(openAiModel) }))

    // Unknown and not allowed answer alike, so a key cannot probe which models exist.
    const retrieve = (key: ApiKey, id: string): Answer => {
      const found = registry.find(id)
      return found === undefined || !allowsModel(key, id)
        ? Effect.fail(new ModelNotFound({ model: id }))
        : Effect.succeed(cachedJson(JSON.stringify(openAiModel(found.entry))))
    }

    // The router serves `/v1/models/*` at `/v1/models` too, with no id: the list.
    yield* router.add("GET", "/v1/models/*", (request) =>
      keyed(request, (key) =>
        Effect.flatMap(HttpRouter.params, (params) => {
          const id = params["*"]
          return id === undefined ? list(key) : retrieve(key, id)
        })))
  })
)
