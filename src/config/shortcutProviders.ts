import { Config, Effect, Option } from "effect"
import { builtinCatalog } from "./builtinCatalogs.ts"
import type { ProviderConfig } from "./ProviderConfig.ts"

/** Providers implied by well-known environment variables, each with its built-in catalog. */
export const shortcutProviders = Effect.gen(function*() {
  const openaiKey = yield* Config.option(Config.Redacted("OPENAI_API_KEY"))
  const openaiBaseURL = yield* Config.option(Config.String("OPENAI_BASE_URL"))
  const anthropicKey = yield* Config.option(Config.Redacted("ANTHROPIC_API_KEY"))
  const providers: Array<ProviderConfig> = []
  if (Option.isSome(openaiKey)) {
    providers.push({
      id: "openai",
      type: "openai",
      apiKey: openaiKey.value,
      models: builtinCatalog("openai") ?? [],
      ...Option.match(openaiBaseURL, { onNone: () => ({}), onSome: (baseURL) => ({ baseURL }) })
    })
  }
  if (Option.isSome(anthropicKey)) {
    providers.push({
      id: "anthropic",
      type: "anthropic",
      apiKey: anthropicKey.value,
      models: builtinCatalog("anthropic") ?? []
    })
  }
  return providers
})
