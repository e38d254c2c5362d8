import { Config, Effect, Option } from "effect"
import { cloudProvider, isCloudType, isProblems } from "./cloudProviders.ts"
import { loadModelCatalog } from "./modelCatalog.ts"
import type { ProviderConfig } from "./ProviderConfig.ts"
import { azureResourceName, cloudVariables, conventionalKey, vendorTypes } from "./providerKeys.ts"

/**
 * Providers implied by well-known environment variables (each type's AI SDK
 * package's own key variable: `OPENAI_API_KEY`, `GOOGLE_GENERATIVE_AI_API_KEY`…),
 * each named after its type and offering the model catalog's models for it. Azure's takes
 * `AZURE_RESOURCE_NAME` as well: its key without it adds nothing. `vertex`
 * and `bedrock` need no key but what their packages read instead: Vertex's
 * project and location (Google credentials), Bedrock's region and an AWS
 * access key pair; they list no models (an entry in the config file lists them: docs/DESIGN.md §15).
 */
export const shortcutProviders = Effect.gen(function*() {
  const openaiBaseURL = yield* Config.option(Config.String("OPENAI_BASE_URL"))
  const resourceName = yield* azureResourceName
  const cloud = yield* cloudVariables
  const providers: Array<ProviderConfig> = []
  for (const type of vendorTypes) {
    const key = yield* conventionalKey(type)
    if (isCloudType(type)) {
      const models: ReadonlyArray<never> = []
      const outcome = cloudProvider({ id: type, type, models }, {
        id: type,
        models,
        ...Option.match(key, {
          onNone: () => ({}),
          onSome: (apiKey) => ({ apiKey })
        })
      }, cloud)
      // Problems mean the variables do not configure this type: no shortcut, and nothing to complain about.
      if (!isProblems(outcome)) providers.push(outcome)
      continue
    }
    if (Option.isNone(key)) continue
    const models = (yield* Effect.promise(loadModelCatalog)).offered(type)
    if (type === "azure") {
      if (Option.isSome(resourceName)) {
        providers.push({ id: type, type, apiKey: key.value, models, resourceName: resourceName.value })
      }
      continue
    }
    providers.push({
      id: type,
      type,
      apiKey: key.value,
      models,
      ...(type === "openai"
        ? Option.match(openaiBaseURL, { onNone: () => ({}), onSome: (baseURL) => ({ baseURL }) })
        : {})
    })
  }
  return providers
})
