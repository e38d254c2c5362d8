import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { assert, describe, it } from "@effect/vitest"
import { APICallError } from "ai"
import { MockLanguageModelV4 } from "ai/test"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll } from "vitest"
import { AppConfig } from "../../src/config/AppConfig.ts"
import { loadModelCatalog } from "../../src/config/modelCatalog.ts"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { ModelRegistry } from "../../src/models/ModelRegistry.ts"
import { tempDir, withEnvironment, writeConfigFile } from "../config/fixtures.ts"

const modelCatalog = await loadModelCatalog()

const KEY = "sk-registry-test-key"
let upstream: Upstream
beforeAll(async () => {
  upstream = await startUpstream({ apiKey: KEY })
})
afterAll(() => upstream.close())

/** The registry built from the real config layer, against exactly these variables (run from an empty directory). */
const registryWith = (env: Record<string, string>) =>
  withEnvironment(
    Effect.gen(function*() {
      return yield* ModelRegistry
    }).pipe(Effect.provide(ModelRegistry.layer.pipe(Layer.provide(AppConfig.layer)))),
    env
  )

const localFile = (provider: Record<string, unknown>) =>
  writeConfigFile({
    providers: [{
      id: "local",
      type: "openai-compatible",
      baseURL: upstream.url,
      models: [
        { id: "m1", name: "Model One", categories: ["chat"], contextWindow: 128000, maxOutputTokens: 16384 },
        { id: "m2", name: "Model Two", categories: ["chat", "fast"] }
      ],
      ...provider
    }]
  }, tempDir())

const streamOnce = (model: LanguageModelV4, text: string) =>
  Effect.promise(async () => {
    const { stream } = await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text }] }] })
    const parts: Array<LanguageModelV4StreamPart> = []
    for await (const part of stream) parts.push(part)
    return parts
  })

const textOf = (parts: ReadonlyArray<LanguageModelV4StreamPart>) =>
  parts.flatMap((part) => part.type === "text-delta" ? [part.delta] : []).join("")

describe("ModelRegistry", () => {
  it.effect("lists every configured model as <provider>/<model>", () =>
    Effect.gen(function*() {
      const registry = yield* registryWith({ PARLEY_CONFIG: localFile({ apiKey: KEY }) })
      assert.deepStrictEqual(registry.catalog, [
        {
          id: "local/m1",
          name: "Model One",
          categories: ["chat"],
          contextWindow: 128000,
          maxOutputTokens: 16384,
          provider: "local"
        },
        { id: "local/m2", name: "Model Two", categories: ["chat", "fast"], provider: "local" }
      ])
    }))

  it.effect("streams through a registry model to the upstream with the configured key and usage on", () =>
    Effect.gen(function*() {
      const registry = yield* registryWith({ PARLEY_CONFIG: localFile({ apiKey: KEY }) })
      upstream.enqueue({ type: "text", text: "from upstream", usage: { promptTokens: 12, completionTokens: 3 } })
      const parts = yield* streamOnce(registry.find("local/m1")!.model, "hi")

      assert.strictEqual(textOf(parts), "from upstream")
      const finish = parts.find((part) => part.type === "finish")
      assert.strictEqual(finish?.type === "finish" ? finish.usage.inputTokens.total : undefined, 12)
      const request = upstream.requests.at(-1)!
      assert.strictEqual(request.headers.authorization, `Bearer ${KEY}`)
      assert.strictEqual(request.body.model, "m1")
      assert.deepStrictEqual(request.body.stream_options, { include_usage: true })
    }))

  it.effect("finds a model by exact id only, and hands out the same instance every time", () =>
    Effect.gen(function*() {
      const registry = yield* registryWith({ PARLEY_CONFIG: localFile({ apiKey: KEY }) })
      const found = registry.find("local/m2")
      assert.strictEqual(found?.entry.name, "Model Two")
      assert.strictEqual(found?.model.modelId, "m2")
      assert.strictEqual(registry.find("local/m2")?.model, found?.model)
      for (const unknown of ["local/m3", "m1", "other/m1", "local/", ""]) assert.isUndefined(registry.find(unknown))
    }))

  it.effect("reads the key from the variable apiKeyEnv names", () =>
    Effect.gen(function*() {
      const registry = yield* registryWith({ PARLEY_CONFIG: localFile({ apiKeyEnv: "LOCAL_KEY" }), LOCAL_KEY: KEY })
      upstream.enqueue({ type: "text", text: "ok" })
      assert.strictEqual(textOf(yield* streamOnce(registry.find("local/m1")!.model, "hi")), "ok")
      assert.strictEqual(upstream.requests.at(-1)!.headers.authorization, `Bearer ${KEY}`)
    }))

  it.effect("builds the openai shortcut with its catalog, talking Chat Completions to OPENAI_BASE_URL", () =>
    Effect.gen(function*() {
      const registry = yield* registryWith({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: upstream.url })
      assert.isTrue(registry.catalog.length >= 3)
      assert.isTrue(registry.catalog.every((entry) => entry.id.startsWith("openai/") && entry.provider === "openai"))
      upstream.enqueue({ type: "text", text: "hello from openai" })
      const parts = yield* streamOnce(registry.find("openai/gpt-4o-mini")!.model, "hi")
      assert.strictEqual(textOf(parts), "hello from openai")
      assert.strictEqual(upstream.requests.at(-1)!.body.model, "gpt-4o-mini")
      assert.strictEqual(upstream.requests.at(-1)!.headers.authorization, `Bearer ${KEY}`)
    }))

  it.effect("builds the anthropic shortcut on the Messages API", () =>
    Effect.gen(function*() {
      const registry = yield* registryWith({ ANTHROPIC_API_KEY: "sk-ant" })
      const sonnet = registry.find("anthropic/claude-sonnet-4-5")
      assert.strictEqual(sonnet?.entry.contextWindow, 200_000)
      assert.strictEqual(sonnet?.model.provider, "anthropic.messages")
    }))

  it.effect("a config with one provider of each type builds and lists every catalog model on its type's package", () =>
    Effect.gen(function*() {
      const types = ["openai", "anthropic", "google", "mistral", "groq", "xai", "deepseek"] as const
      const path = writeConfigFile({
        providers: [
          {
            id: "local",
            type: "openai-compatible",
            baseURL: upstream.url,
            models: [{ id: "m", name: "M", categories: [] }]
          },
          ...types.map((type) => ({ id: `my-${type}`, type, apiKey: `${type}-key` }))
        ]
      }, tempDir())
      const registry = yield* registryWith({ PARLEY_CONFIG: path })
      for (const type of types) {
        const catalog = modelCatalog.offered(type)
        const listed = registry.catalog.filter((entry) => entry.provider === `my-${type}`)
        assert.deepStrictEqual(listed.map((entry) => entry.id), catalog.map((model) => `my-${type}/${model.id}`))
        assert.deepStrictEqual(listed.map((entry) => entry.contextWindow), catalog.map((model) => model.contextWindow))
        const model = registry.find(listed[0]!.id)!.model
        assert.strictEqual(model.modelId, catalog[0]!.id)
        assert.isTrue(model.provider.startsWith(type === "google" ? "google" : type), model.provider)
      }
    }))

  it.effect("keeps the provider key out of the error an upstream failure produces", () =>
    Effect.gen(function*() {
      const registry = yield* registryWith({ PARLEY_CONFIG: localFile({ apiKey: KEY }) })
      upstream.enqueue({ type: "error", status: 500 })
      const model = registry.find("local/m1")!.model
      const error = yield* Effect.promise(() =>
        model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }).then(
          () => undefined,
          (failure: unknown) => failure
        )
      )
      assert.isTrue(APICallError.isInstance(error))
      const apiError = error as APICallError
      assert.strictEqual(apiError.statusCode, 500)
      for (const text of [apiError.message, String(apiError), JSON.stringify(apiError), apiError.responseBody ?? ""]) {
        assert.notInclude(text, KEY)
      }
    }))

  it.effect("fails to build on a bad config file, naming the file and the field", () =>
    Effect.gen(function*() {
      const path = localFile({ models: [{ id: "m1", name: "", categories: [] }] })
      const error = yield* Effect.flip(registryWith({ PARLEY_CONFIG: path }))
      assert.strictEqual(error._tag, "InvalidConfiguration")
      assert.include(error.message, path)
      assert.include(error.message, "providers[0].models[0].name")
    }))

  it.effect("layerTest serves the given models", () =>
    Effect.gen(function*() {
      const registry = yield* ModelRegistry
      assert.deepStrictEqual(registry.catalog.map((entry) => entry.id), ["test/mock"])
      assert.strictEqual(registry.find("test/mock")?.model.modelId, "mock-model-id")
      assert.isUndefined(registry.find("test/other"))
    }).pipe(Effect.provide(ModelRegistry.layerTest([{
      entry: { id: "test/mock", name: "Mock", categories: ["chat"], provider: "test" },
      model: new MockLanguageModelV4()
    }]))))
})
