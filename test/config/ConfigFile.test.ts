import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { loadAppConfig, tempDir, writeConfigFile } from "./fixtures.ts"

const local = (extra: Record<string, unknown> = {}) => ({
  id: "local",
  type: "openai-compatible",
  baseURL: "http://127.0.0.1:9100/v1",
  models: [{ id: "m1", name: "M1", categories: ["chat"], contextWindow: 128000, maxOutputTokens: 16384 }],
  ...extra
})

const failureFor = (content: unknown, env: Record<string, string> = {}) => {
  const path = writeConfigFile(content)
  return loadAppConfig({ PARLEY_CONFIG: path, ...env }).pipe(
    Effect.flip,
    Effect.map((error) => ({ path, error }))
  )
}

describe("config file", () => {
  it.effect("decodes providers and their models", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({ providers: [local({ apiKey: "sk-local" })] })
      const config = yield* loadAppConfig({ PARLEY_CONFIG: path })
      const [provider] = config.providers
      assert.strictEqual(provider?.type, "openai-compatible")
      assert.strictEqual(provider?.baseURL, "http://127.0.0.1:9100/v1")
      assert.strictEqual(Redacted.value(provider!.apiKey!), "sk-local")
      assert.deepStrictEqual(provider?.models, [
        { id: "m1", name: "M1", categories: ["chat"], contextWindow: 128000, maxOutputTokens: 16384 }
      ])
    }))

  it.effect("reads a provider's timeouts, defaulting to 60 s each and 10 min for a whole answer (docs/DESIGN.md §3.21)", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [
          local({ firstByteTimeoutMs: 5_000, idleTimeoutMs: 120_000, answerTimeoutMs: 90_000 }),
          local({ id: "other" })
        ]
      })
      const config = yield* loadAppConfig({ PARLEY_CONFIG: path })
      assert.deepStrictEqual(config.providers[0]?.timeouts, { firstByteMs: 5_000, idleMs: 120_000, answerMs: 90_000 })
      assert.deepStrictEqual(config.providers[1]?.timeouts, { firstByteMs: 60_000, idleMs: 60_000, answerMs: 600_000 })
      const { error } = yield* failureFor({ providers: [local({ idleTimeoutMs: 0 })] })
      assert.include(error.message, "providers[0].idleTimeoutMs")
      const answer = yield* failureFor({ providers: [local({ answerTimeoutMs: -1 })] })
      assert.include(answer.error.message, "providers[0].answerTimeoutMs")
    }))

  it.effect("takes the key from the variable apiKeyEnv names", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({ providers: [local({ apiKeyEnv: "LOCAL_LLM_KEY" })] })
      const config = yield* loadAppConfig({ PARLEY_CONFIG: path, LOCAL_LLM_KEY: "sk-env" })
      assert.strictEqual(Redacted.value(config.providers[0]!.apiKey!), "sk-env")
    }))

  it.effect("lets an openai-compatible provider go without a key, and fills openai's catalog when models are left out", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({ providers: [local(), { id: "oa", type: "openai", apiKey: "k" }] })
      const config = yield* loadAppConfig({ PARLEY_CONFIG: path })
      assert.isUndefined(config.providers[0]!.apiKey)
      assert.isTrue(config.providers[1]!.models.some((m) => m.id.startsWith("gpt-")))
    }))

  it.effect.each([
    {
      what: "a field of the wrong type",
      content: { providers: [local({ baseURL: 42 })] },
      field: "providers[0].baseURL"
    },
    { what: "an unknown type", content: { providers: [local({ type: "cohere" })] }, field: "providers[0].type" },
    {
      what: "a model without id",
      content: { providers: [local({ models: [{ name: "M", categories: [] }] })] },
      field: "providers[0].models[0].id"
    },
    {
      what: "a negative context window",
      content: { providers: [local({ models: [{ id: "m", name: "M", categories: [], contextWindow: -1 }] })] },
      field: "providers[0].models[0].contextWindow"
    },
    { what: "a misspelt key", content: { providers: [local({ apikey: "x" })] }, field: "providers[0].apikey" },
    { what: "a slash in a provider id", content: { providers: [local({ id: "a/b" })] }, field: "providers[0].id" },
    { what: "a duplicate provider id", content: { providers: [local(), local()] }, field: "providers[1].id" },
    {
      what: "a duplicate model id",
      content: {
        providers: [local({ models: [{ id: "m", name: "M", categories: [] }, { id: "m", name: "N", categories: [] }] })]
      },
      field: "providers[0].models[1].id"
    },
    {
      what: "openai-compatible without baseURL",
      content: { providers: [local({ baseURL: undefined })] },
      field: "providers[0].baseURL"
    },
    {
      what: "openai-compatible without models",
      content: { providers: [local({ models: undefined })] },
      field: "providers[0].models"
    },
    {
      what: "anthropic without a key",
      content: { providers: [{ id: "a", type: "anthropic" }] },
      field: "providers[0]: apiKey or apiKeyEnv is required"
    },
    {
      what: "apiKeyEnv naming an unset variable",
      content: { providers: [local({ apiKeyEnv: "NOT_SET_ANYWHERE" })] },
      field: "providers[0].apiKeyEnv: environment variable NOT_SET_ANYWHERE is not set"
    },
    {
      what: "both apiKey and apiKeyEnv",
      content: { providers: [local({ apiKey: "k", apiKeyEnv: "K" })] },
      field: "providers[0]: give apiKey or apiKeyEnv"
    },
    { what: "no providers array", content: { provider: [] }, field: "providers" },
    { what: "malformed JSON", content: "{ \"providers\": [", field: "not valid JSON" }
  ])("fails startup on $what, naming the file and the field", ({ content, field }) =>
    Effect.gen(function*() {
      const { error, path } = yield* failureFor(content)
      assert.strictEqual(error._tag, "InvalidConfiguration")
      assert.include(error.message, path)
      assert.include(error.message, field)
    }))

  it.effect("accepts parley.config.example.json as shipped, with no variable set (README walk-through)", () =>
    Effect.gen(function*() {
      const example = fileURLToPath(new URL("../../parley.config.example.json", import.meta.url))
      const config = yield* loadAppConfig({ PARLEY_CONFIG: example })
      assert.deepStrictEqual(config.providers.map((p) => [p.id, p.type]), [["local", "openai-compatible"]])
      assert.deepStrictEqual(config.providers[0]!.models.map((m) => m.id), ["m1"])
    }))

  it.effect("fails when PARLEY_CONFIG names a missing file", () =>
    Effect.gen(function*() {
      const missing = join(tempDir(), "nope.json")
      const error = yield* Effect.flip(loadAppConfig({ PARLEY_CONFIG: missing }))
      assert.strictEqual(error._tag, "InvalidConfiguration")
      assert.include(error.message, `Cannot read config file ${missing}`)
    }))

  it.effect("never puts an API key into the error", () =>
    Effect.gen(function*() {
      const { error } = yield* failureFor({ providers: [local({ apiKey: "sk-very-secret-value", baseURL: 1 })] })
      assert.notInclude(error.message, "sk-very-secret-value")
      assert.notInclude(JSON.stringify(error), "sk-very-secret-value")
    }))
})
