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

const make = (registered: ReadonlyArray<RegisteredModel>) => {
  const byId = new Map(registered.map((item) => [item.entry.id, item]))
  return ModelRegistry.of({
    catalog: registered.map((item) => item.entry),
    find: (id) => byId.get(id)
  })
}

/**
 * Every configured model, built once at startup and reused by every request.
 */
export class ModelRegistry extends Context.Service<ModelRegistry, {
  readonly catalog: ReadonlyArray<ModelEntry>
  readonly find: (id: string) => RegisteredModel | undefined
}>()("parley/models/ModelRegistry") {
  static readonly layer = Layer.effect(
    ModelRegistry,
    Effect.gen(function*() {
      const { providers } = yield* AppConfig
      const registered = yield* Effect.forEach(providers, registerProvider)
      return make(registered.flat())
    })
  )

  /** A registry of exactly these models (typically `MockLanguageModelV4`s from `ai/test`). */
  static readonly layerTest = (entries: ReadonlyArray<RegisteredModel>): Layer.Layer<ModelRegistry> =>
    Layer.succeed(ModelRegistry, make(entries))
}
