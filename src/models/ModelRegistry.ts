import type { LanguageModelV4 } from "@ai-sdk/provider"
import { Context, Effect, Layer } from "effect"
import { AppConfig, type ProviderConfig, type RouteConfig } from "../config/AppConfig.ts"
import type { TokenizerName } from "../domain/TokenizerName.ts"
import type { ModelRoute } from "./ModelRoute.ts"
import { modelFactoryFor } from "./providerModels.ts"

/** A model as listed by GET /models, plus what pruning needs to know about it. */
export interface ModelEntry {
  /** `<provider>/<model>` */
  readonly id: string
  readonly name: string
  readonly categories: ReadonlyArray<string>
  readonly contextWindow?: number
  readonly maxOutputTokens?: number
  readonly provider: string
  /** How pruning counts this model's tokens, when configured; otherwise derived from the model id. */
  readonly tokenizer?: TokenizerName
}

export interface RegisteredModel {
  readonly entry: ModelEntry
  /** A route's: its first target's, which the conversation is prepared for. */
  readonly model: LanguageModelV4
  /** Set for a `type: "route"` provider's model: what a run tries, in which order (docs/DESIGN.md §15). */
  readonly route?: ModelRoute | undefined
}

/** What the registry is built from: the configured providers and the routes over their models. */
export type ModelSources = Pick<AppConfig["Service"], "providers" | "routes">

const smallest = (values: ReadonlyArray<number | undefined>): number | undefined => {
  const known = values.filter((value) => value !== undefined)
  return known.length === 0 ? undefined : Math.min(...known)
}

/**
 * A route as a model of the catalog: what pruning must fit is what every
 * target takes, so its window and output limit are the smallest of theirs.
 * The config was checked at start: every target is registered.
 */
const registerRoute = (route: RouteConfig, byId: ReadonlyMap<string, RegisteredModel>): RegisteredModel => {
  const targets = route.targets.map((target) => ({ registered: byId.get(target.model)!, weight: target.weight }))
  const first = targets[0]!.registered
  const contextWindow = smallest(targets.map((target) => target.registered.entry.contextWindow))
  const maxOutputTokens = smallest(targets.map((target) => target.registered.entry.maxOutputTokens))
  return {
    entry: {
      id: route.id,
      name: route.id,
      categories: first.entry.categories,
      provider: route.provider,
      ...(contextWindow === undefined ? {} : { contextWindow }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      ...(first.entry.tokenizer === undefined ? {} : { tokenizer: first.entry.tokenizer })
    },
    model: first.model,
    route: {
      strategy: route.strategy,
      firstChunkTimeoutMs: route.firstChunkTimeoutMs,
      targets: targets.map(({ registered, weight }) => ({
        target: { id: registered.entry.id, provider: registered.entry.provider, model: registered.model },
        weight
      }))
    }
  }
}

const registerProvider = (provider: ProviderConfig) =>
  Effect.map(
    Effect.promise(() => modelFactoryFor(provider)),
    (modelFor) =>
      provider.models.map((model): RegisteredModel => ({
        entry: {
          id: `${provider.id}/${model.id}`,
          name: model.name,
          categories: model.categories,
          provider: provider.id,
          ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
          ...(model.maxOutputTokens === undefined ? {} : { maxOutputTokens: model.maxOutputTokens }),
          ...(model.tokenizer === undefined ? {} : { tokenizer: model.tokenizer })
        },
        model: modelFor(model.id)
      }))
  )

const registerAll = ({ providers, routes }: ModelSources) =>
  Effect.map(Effect.forEach(providers, registerProvider), (registered) => {
    const models = registered.flat()
    const byId = new Map(models.map((model) => [model.entry.id, model]))
    return [...models, ...routes.map((route) => registerRoute(route, byId))]
  })

const indexed = (registered: ReadonlyArray<RegisteredModel>) => ({
  catalog: registered.map((item) => item.entry),
  byId: new Map(registered.map((item) => [item.entry.id, item]))
})

const make = (registered: ReadonlyArray<RegisteredModel>) => {
  let current = indexed(registered)
  return ModelRegistry.of({
    get catalog() {
      return current.catalog
    },
    find: (id) => current.byId.get(id),
    replace: (sources) =>
      Effect.map(registerAll(sources), (next) => {
        current = indexed(next)
      })
  })
}

/**
 * Every configured model, built at startup and reused by every request;
 * `replace` swaps them all at once when the config file is reloaded
 * (SIGHUP, docs/DESIGN.md §8): a request holds the model it found.
 */
export class ModelRegistry extends Context.Service<ModelRegistry, {
  readonly catalog: ReadonlyArray<ModelEntry>
  readonly find: (id: string) => RegisteredModel | undefined
  readonly replace: (sources: ModelSources) => Effect.Effect<void>
}>()("parley/models/ModelRegistry") {
  static readonly layer = Layer.effect(
    ModelRegistry,
    Effect.gen(function*() {
      return make(yield* registerAll(yield* AppConfig))
    })
  )

  /** A registry of exactly these models (typically `MockLanguageModelV4`s from `ai/test`). */
  static readonly layerTest = (entries: ReadonlyArray<RegisteredModel>): Layer.Layer<ModelRegistry> =>
    Layer.succeed(ModelRegistry, make(entries))
}
