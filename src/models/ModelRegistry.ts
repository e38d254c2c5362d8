import type { LanguageModelV4 } from "@ai-sdk/provider"
import { Context, Effect, Layer } from "effect"
import { AppConfig, type ProviderConfig } from "../config/AppConfig.ts"
import type { TokenizerName } from "../domain/TokenizerName.ts"
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
  readonly model: LanguageModelV4
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

const registerAll = (providers: ReadonlyArray<ProviderConfig>) =>
  Effect.map(Effect.forEach(providers, registerProvider), (registered) => registered.flat())

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
    replace: (providers) =>
      Effect.map(registerAll(providers), (next) => {
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
  readonly replace: (providers: ReadonlyArray<ProviderConfig>) => Effect.Effect<void>
}>()("parley/models/ModelRegistry") {
  static readonly layer = Layer.effect(
    ModelRegistry,
    Effect.gen(function*() {
      const { providers } = yield* AppConfig
      return make(yield* registerAll(providers))
    })
  )

  /** A registry of exactly these models (typically `MockLanguageModelV4`s from `ai/test`). */
  static readonly layerTest = (entries: ReadonlyArray<RegisteredModel>): Layer.Layer<ModelRegistry> =>
    Layer.succeed(ModelRegistry, make(entries))
}
