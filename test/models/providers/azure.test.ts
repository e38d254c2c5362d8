import { createAzure } from "@ai-sdk/azure"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { loadModelCatalog } from "../../../src/config/modelCatalog.ts"
import { loadAppConfig, writeConfigFile } from "../../config/fixtures.ts"
import { startAzure } from "../../support/upstreams/azure.ts"
import { providerSuite } from "./providerSuite.ts"

const modelCatalog = await loadModelCatalog()

// An Azure OpenAI key as the portal shows it: 32 hex digits, just long enough for parley's redaction.
const apiKey = "3f9a1c07d2b84e6f9a0c5d1e7b2f4a86"

providerSuite({
  type: "azure",
  apiKey,
  environment: { AZURE_RESOURCE_NAME: "parley-test" },
  startProblems: ["providers[1]: resourceName or baseURL is required for type azure, or set AZURE_RESOURCE_NAME"],
  startUpstream: startAzure,
  keyOf: (request) => request.headers["api-key"] as string | undefined,
  sdkModel: (baseURL, key, modelId) => createAzure({ baseURL, apiKey: key }).chat(modelId),
  sdkProvider: "azure.chat",
  wholeAnswers: true,
  streamErrors: true,
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, reasoningTokens: 5, cachedInputTokens: 32 }
})

describe("provider type azure: the resource", () => {
  it.effect("resourceName and apiVersion from the entry, else AZURE_RESOURCE_NAME; baseURL needs neither", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [
          { id: "own", type: "azure", apiKey: "k", resourceName: "my-resource", apiVersion: "preview" },
          { id: "env", type: "azure", apiKey: "k" },
          { id: "url", type: "azure", apiKey: "k", baseURL: "http://127.0.0.1:9/openai/v1" }
        ]
      })
      const config = yield* loadAppConfig({ PARLEY_CONFIG: path, AZURE_RESOURCE_NAME: "from-env" })
      const [own, env, url] = config.providers
      assert.deepInclude(own, { type: "azure", resourceName: "my-resource", apiVersion: "preview" })
      assert.deepInclude(env, { type: "azure", resourceName: "from-env" })
      assert.deepInclude(url, { type: "azure", baseURL: "http://127.0.0.1:9/openai/v1" })
      assert.notProperty(url, "resourceName")
      assert.deepStrictEqual(own!.models, modelCatalog.offered("openai"))
    }))

  it.effect("AZURE_API_KEY without AZURE_RESOURCE_NAME adds no provider", () =>
    Effect.gen(function*() {
      const config = yield* loadAppConfig({ AZURE_API_KEY: apiKey })
      assert.deepStrictEqual(config.providers, [])
    }))

  it.effect("a resource name that is no DNS label, and Azure's settings on another type, are start-up problems", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [
          { id: "a", type: "azure", apiKey: "k" },
          { id: "b", type: "openai", apiKey: "k", resourceName: "r", apiVersion: "v1" }
        ]
      })
      const error = yield* Effect.flip(loadAppConfig({ PARLEY_CONFIG: path, AZURE_RESOURCE_NAME: "not.a.label" }))
      assert.include(error.message, "providers[0]: AZURE_RESOURCE_NAME \"not.a.label\" is not an Azure resource name")
      assert.include(error.message, "providers[1].resourceName: only for type azure")
      const malformed = writeConfigFile({
        providers: [{ id: "c", type: "azure", apiKey: "k", resourceName: "https://x.openai.azure.com" }]
      })
      const schemaError = yield* Effect.flip(loadAppConfig({ PARLEY_CONFIG: malformed }))
      assert.include(schemaError.message, "providers[0].resourceName")
    }))
})
