import { assert, describe, it } from "@effect/vitest"
import { calcPrice, findProvider } from "@pydantic/genai-prices"
import { Effect } from "effect"
import { loadModelCatalog } from "../../src/config/modelCatalog.ts"
import { loadAppConfig, writeConfigFile } from "./fixtures.ts"

const catalog = await loadModelCatalog()

const must = <A>(value: A | undefined | null, what: string): A => {
  assert.isDefined(value, what)
  assert.isNotNull(value, what)
  return value!
}

/** The package's own record and current price of a model, to hold the catalog to (not numbers that age). */
const packageData = (providerId: string, modelId: string) => {
  const found = must(calcPrice({}, modelId, { providerId }), `${providerId}/${modelId} in @pydantic/genai-prices`)
  const price = (key: string) => {
    const value = found.model_price[key]
    return must(typeof value === "number" ? value : value?.base, `${modelId}'s ${key}`)
  }
  return {
    name: must(found.model.name, `${modelId}'s name`),
    contextWindow: must(found.model.context_window, `${modelId}'s context window`),
    pricing: {
      inputPerMTok: price("input_mtok"),
      outputPerMTok: price("output_mtok"),
      cachedInputPerMTok: price("cache_read_mtok")
    }
  }
}

describe("model catalog (@pydantic/genai-prices)", () => {
  it("gives a known model its name, context window and prices as the package states them", () => {
    const known = catalog.lookup("anthropic", "claude-sonnet-4-5")
    const expected = packageData("anthropic", "claude-sonnet-4-5")
    assert.deepStrictEqual(known, expected)
    // One sanity bound, so a package that dropped or garbled the data fails here rather than in production.
    assert.isTrue(known!.contextWindow! >= 100_000 && known!.contextWindow! <= 10_000_000, String(known!.contextWindow))
    assert.isTrue(known!.pricing!.cachedInputPerMTok! < known!.pricing!.inputPerMTok)
  })

  it("matches ids as the package does: a dated snapshot is its model; Azure deployments are priced as OpenAI's", () => {
    assert.deepStrictEqual(
      catalog.lookup("anthropic", "claude-sonnet-4-5-20250929"),
      catalog.lookup("anthropic", "claude-sonnet-4-5")
    )
    assert.deepStrictEqual(catalog.lookup("azure", "gpt-5-mini")?.pricing, packageData("openai", "gpt-5-mini").pricing)
    assert.isUndefined(catalog.lookup("anthropic", "no-such-model-anywhere"))
  })

  it("offers, per type, the package's current chat models with a window and text prices, nothing retired or off-chat", () => {
    for (const type of ["openai", "anthropic", "google", "azure", "mistral", "groq", "xai", "deepseek"] as const) {
      const offered = catalog.offered(type)
      assert.isAbove(offered.length, 0, type)
      const providerId = { xai: "x-ai", azure: "openai" }[type as string] ?? type
      const listed = new Map(findProvider({ providerId })!.models.map((model) => [model.id, model]))
      for (const model of offered) {
        const source = listed.get(model.id)
        assert.isDefined(source, `${type}/${model.id} is the package's`)
        assert.notStrictEqual(source!.deprecated, true, `${type}/${model.id}`)
        assert.strictEqual(model.contextWindow, source!.context_window)
        assert.isDefined(model.pricing, `${type}/${model.id}`)
        assert.notMatch(model.id, /embed|tts|whisper|image|:free/, `${type}/${model.id}`)
      }
    }
    assert.isTrue(catalog.offered("google").every((model) => model.id.startsWith("gemini-")))
    assert.include(catalog.offered("anthropic").map((model) => model.id), "claude-sonnet-4-5")
  })
})

describe("model catalog in the config file", () => {
  it.effect("an entry without models offers the catalog's models for its type, with their data", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({ providers: [{ id: "claude", type: "anthropic", apiKey: "k" }] })
      const config = yield* loadAppConfig({ PARLEY_CONFIG: path })
      assert.deepStrictEqual(config.providers[0]!.models, catalog.offered("anthropic"))
    }))

  it.effect("an entry's fields win per model; the catalog fills the rest; its pricing replaces the catalog's", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [{
          id: "claude",
          type: "anthropic",
          apiKey: "k",
          models: [
            { id: "claude-sonnet-4-5" },
            {
              id: "claude-haiku-4-5",
              name: "Haiku",
              contextWindow: 50_000,
              maxOutputTokens: 4_096,
              pricing: { inputPerMTok: 1, outputPerMTok: 2 }
            },
            { id: "in-house-model", categories: ["chat", "code"] }
          ]
        }]
      })
      const [filled, overridden, unknown] = (yield* loadAppConfig({ PARLEY_CONFIG: path })).providers[0]!.models
      const sonnet = packageData("anthropic", "claude-sonnet-4-5")
      assert.deepStrictEqual(filled, { id: "claude-sonnet-4-5", categories: ["chat"], ...sonnet })
      assert.deepStrictEqual(overridden, {
        id: "claude-haiku-4-5",
        name: "Haiku",
        categories: ["chat"],
        contextWindow: 50_000,
        maxOutputTokens: 4_096,
        pricing: { inputPerMTok: 1, outputPerMTok: 2 }
      })
      assert.deepStrictEqual(unknown, { id: "in-house-model", name: "in-house-model", categories: ["chat", "code"] })
    }))

  it.effect("an openai-compatible entry takes nothing from the catalog, even for an id the catalog knows", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [{
          id: "local",
          type: "openai-compatible",
          baseURL: "http://127.0.0.1:9/v1",
          models: [{ id: "gpt-5" }]
        }]
      })
      const config = yield* loadAppConfig({ PARLEY_CONFIG: path })
      assert.deepStrictEqual(config.providers[0]!.models, [{ id: "gpt-5", name: "gpt-5", categories: ["chat"] }])
    }))
})
