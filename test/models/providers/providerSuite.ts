import type { LanguageModelV4, LanguageModelV4Content } from "@ai-sdk/provider"
import { assert, describe, expect, it } from "@effect/vitest"
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai"
import { Effect, Layer, Redacted } from "effect"
import { afterAll, beforeAll } from "vitest"
import { AppConfig } from "../../../src/config/AppConfig.ts"
import { loadModelCatalog } from "../../../src/config/modelCatalog.ts"
import type { ModelConfig, ProviderConfig, VendorProviderType } from "../../../src/config/ProviderConfig.ts"
import { keyVariableOf } from "../../../src/config/providerKeys.ts"
import { ModelRegistry } from "../../../src/models/ModelRegistry.ts"
import { normalize, referenceRun } from "../../agent/oracle.ts"
import { loadAppConfig, tempDir, withEnvironment, writeConfigFile } from "../../config/fixtures.ts"
import { chatThroughAiSdk, withoutIds } from "../../support/chatClient.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { makeTestTool } from "../../support/tools.ts"
import type { Script, ScriptedRequest, ScriptedUpstream } from "../../support/upstreams/scripted.ts"

const modelCatalog = await loadModelCatalog()

/**
 * One provider type, whole: configured in the file and by its package's key
 * variable, checked at start, its failures mapped to parley's errors, and
 * its AI SDK package talking HTTP to a scripted server of the provider's own
 * wire, through `POST /api/v1/chat` (JSON and stream) and against the AI
 * SDK's own `streamText` over the same answers (docs/DESIGN.md §15).
 */
export interface ProviderCase {
  readonly type: VendorProviderType
  /** A key shaped like the provider's (long enough that parley redacts it from messages). */
  readonly apiKey: string
  readonly startUpstream: (apiKey: string) => Promise<ScriptedUpstream>
  /** Variables the type needs besides its key (Azure's resource name), set wherever the key is. */
  readonly environment?: Record<string, string>
  /** Lines start adds for the type's own settings, where the entries of the start-up check lack them. */
  readonly startProblems?: ReadonlyArray<string>
  /** The line start gives for an entry with no key, where the type needs more than `apiKey` (Bedrock's SigV4). */
  readonly missingKeyProblem?: string
  /** The models every entry lists, for a type without a built-in catalog (`vertex`, `bedrock`). */
  readonly models?: ReadonlyArray<ModelConfig>
  /** The type's own settings on a provider built without the config file (Bedrock's `region`). */
  readonly providerSettings?: Record<string, unknown>
  /** The key as the request carried it (the provider's own header). */
  readonly keyOf: (request: ScriptedRequest) => string | undefined
  /** The AI SDK package's model over `baseURL`, for the oracle. */
  readonly sdkModel: (baseURL: string, apiKey: string, modelId: string) => LanguageModelV4
  /** The `provider` the package gives its chat models. */
  readonly sdkProvider: string
  /** Whether the package's JSON (whole answer) call is a request of its own on the wire. */
  readonly wholeAnswers: boolean
  /** The wire has an error event inside a stream (the scripted upstream's `stream-error`). */
  readonly streamErrors?: boolean
  /**
   * The signature the wire puts on thinking that must come back with the calls it preceded (Anthropic's
   * thinking blocks): the tool loop's first answer then thinks too, and the request after it must carry it.
   */
  readonly thinkingSignature?: string
  /** parley's usage of the tool loop below: what the wire reports (reasoning and cached tokens where it does). */
  readonly toolLoopUsage: Record<string, number>
}

const echo = makeTestTool({ name: "echo" })
const SYSTEM = "You are a test assistant."

const toolLoop = (spec: ProviderCase): Array<Script> => [
  {
    type: "tool-calls",
    calls: [{ name: "echo", arguments: { text: "ping" } }],
    ...(spec.thinkingSignature === undefined ? {} : { reasoning: "Echo it first." }),
    usage: { input: 40, output: 6 }
  },
  {
    type: "text",
    text: "The tool said ping.",
    reasoning: "It echoed, so say so.",
    usage: { input: 70, output: 12, cached: 32, reasoning: 5 }
  }
]

const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).flatMap((part) => part.type === "text" ? [part.text] : []).join("")

const toolCallsOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).flatMap((part) =>
    part.type === "dynamic-tool" ? [{ toolName: part.toolName, input: part.input, state: part.state }] : []
  )

/**
 * Ids the package generates itself (Gemini sends no tool call ids) replaced,
 * at any depth, by their order of appearance under `keys`: two runs of one
 * script then compare equal.
 */
const renumber = (value: unknown, keys: ReadonlyArray<string>): unknown => {
  const ids = new Map<string, string>()
  return JSON.parse(JSON.stringify(value, (key, item) => {
    if (!keys.includes(key) || typeof item !== "string") return item
    if (!ids.has(item)) ids.set(item, `id-${ids.size}`)
    return ids.get(item)
  }))
}

const messageOf = async (chunks: ReadonlyArray<UIMessageChunk>) => {
  let message: UIMessage | undefined
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    }
  })
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot
  return message
}

const finishUsage = (chunks: ReadonlyArray<UIMessageChunk>) => {
  const last = chunks.at(-1)
  return last?.type === "finish" ? (last.messageMetadata as { usage?: unknown }).usage : undefined
}

export const providerSuite = (spec: ProviderCase) => {
  const variable = keyVariableOf[spec.type]
  // A type whose entries list their models (`vertex`, `bedrock`) is configured with them; the others offer the catalog's.
  const builtin = spec.models === undefined ? modelCatalog.offered(spec.type) : undefined
  const catalog = builtin ?? spec.models ?? []
  const listed = builtin === undefined ? { models: catalog } : {}
  const firstModel = catalog[0]!.id
  const environment = spec.environment ?? {}

  describe(`provider type ${spec.type}: configuration`, () => {
    it.effect(
      `a file entry takes its key from ${variable} and offers ${
        builtin === undefined ? "the models it lists" : "the model catalog without models"
      }`,
      () =>
        Effect.gen(function*() {
          const path = writeConfigFile({
            providers: [{ id: "p", type: spec.type, baseURL: "http://127.0.0.1:9/x", ...listed }]
          })
          const config = yield* loadAppConfig({ PARLEY_CONFIG: path, [variable]: spec.apiKey, ...environment })
          const provider = config.providers.find((p) => p.id === "p")!
          assert.strictEqual(provider.type, spec.type)
          assert.strictEqual(provider.baseURL, "http://127.0.0.1:9/x")
          assert.strictEqual(Redacted.value(provider.apiKey!), spec.apiKey)
          // A listed model keeps what its entry says; the catalog fills the rest (its prices, where it knows the id).
          assert.deepStrictEqual(provider.models.map((model) => model.id), catalog.map((model) => model.id))
          provider.models.forEach((model, index) => assert.deepInclude(model, catalog[index]!))
          assert.isTrue(catalog.length > 0)
          for (const model of catalog) {
            assert.isTrue(model.name.length > 0 && model.categories.length > 0)
            if (model.contextWindow !== undefined) assert.isTrue(model.contextWindow > 0)
          }
          if (builtin !== undefined) return
          const unlisted = writeConfigFile({
            providers: [{ id: "p", type: spec.type, baseURL: "http://127.0.0.1:9/x" }]
          })
          const error = yield* Effect.flip(
            loadAppConfig({ PARLEY_CONFIG: unlisted, [variable]: spec.apiKey, ...environment })
          )
          assert.include(error.message, `providers[0].models: required for type ${spec.type}`)
        })
    )

    it.effect(`${variable} alone adds provider ${spec.type} with its catalog; a file entry of that id wins`, () =>
      Effect.gen(function*() {
        const alone = yield* loadAppConfig({ [variable]: spec.apiKey, ...environment })
        assert.deepStrictEqual(alone.providers.map((p) => [p.id, p.type, p.models.length]), [[
          spec.type,
          spec.type,
          builtin?.length ?? 0
        ]])
        const path = writeConfigFile({
          providers: [{
            id: spec.type,
            type: spec.type,
            apiKey: "file-key",
            models: [{ id: "m", name: "M", categories: [] }]
          }]
        })
        const both = yield* loadAppConfig({ PARLEY_CONFIG: path, [variable]: spec.apiKey, ...environment })
        assert.deepStrictEqual(both.providers.map((p) => [p.id, p.models.map((m) => m.id)]), [[spec.type, ["m"]]])
        assert.strictEqual(Redacted.value(both.providers[0]!.apiKey!), "file-key")
      }))

    it.effect("start names every problem of its entries at once", () =>
      Effect.gen(function*() {
        const path = writeConfigFile({
          providers: [
            { id: "a", type: spec.type },
            { id: "b", type: spec.type, apiKey: "k", apiKeyEnv: "B_KEY" },
            { id: "a", type: spec.type, apiKeyEnv: "NOT_SET_ANYWHERE" }
          ]
        })
        const error = yield* Effect.flip(loadAppConfig({ PARLEY_CONFIG: path }))
        assert.strictEqual(error._tag, "InvalidConfiguration")
        for (
          const line of [
            spec.missingKeyProblem ??
              `providers[0]: apiKey or apiKeyEnv is required for type ${spec.type}, or set ${variable}`,
            "providers[1]: give apiKey or apiKeyEnv, not both",
            "providers[2].id: duplicate provider id \"a\"",
            "providers[2].apiKeyEnv: environment variable NOT_SET_ANYWHERE is not set",
            ...(spec.startProblems ?? [])
          ]
        ) assert.include(error.message, line)
        // What the file's schema refuses is named all at once too (before the checks above can run).
        const malformed = writeConfigFile({
          providers: [
            { id: "c", type: spec.type, apiKey: "k", baseURL: "ftp://nowhere" },
            { id: "d", type: spec.type, apiKey: "k", models: [{ id: "m", name: "", contextWindow: 0 }] }
          ]
        })
        const schemaError = yield* Effect.flip(loadAppConfig({ PARLEY_CONFIG: malformed }))
        for (
          const field of ["providers[0].baseURL", "providers[1].models[0].name", "providers[1].models[0].contextWindow"]
        ) {
          assert.include(schemaError.message, field)
        }
      }))
  })

  describe(`provider type ${spec.type}: the AI SDK package over the provider's wire`, () => {
    let upstream: ScriptedUpstream
    beforeAll(async () => {
      upstream = await spec.startUpstream(spec.apiKey)
    })
    afterAll(() => upstream.close())

    const registryModel = (modelId: string) =>
      withEnvironment(
        Effect.map(
          Effect.provide(Effect.service(ModelRegistry), ModelRegistry.layer.pipe(Layer.provide(AppConfig.layer))),
          (registry) => registry.find(`p/${modelId}`)!
        ),
        {
          PARLEY_CONFIG: writeConfigFile(
            { providers: [{ id: "p", type: spec.type, baseURL: upstream.url, ...listed }] },
            tempDir()
          ),
          [variable]: spec.apiKey,
          ...environment
        }
      )

    it.effect("the registry builds the catalog's models on the package, with the key from the variable", () =>
      Effect.gen(function*() {
        const found = yield* registryModel(firstModel)
        assert.strictEqual(found.entry.id, `p/${firstModel}`)
        assert.strictEqual(found.entry.contextWindow, catalog[0]!.contextWindow)
        assert.strictEqual(found.model.provider, spec.sdkProvider)
        assert.strictEqual(found.model.modelId, firstModel)
      }))

    it.effect(
      spec.wholeAnswers
        ? "a whole answer (JSON): text, tool calls and usage"
        : "doGenerate: text, tool calls and usage",
      () =>
        Effect.gen(function*() {
          const { model } = yield* registryModel(firstModel)
          upstream.enqueue(
            { type: "text", text: "Hello from the provider.", usage: { input: 21, output: 6, cached: 4 } },
            {
              type: "tool-calls",
              calls: [{ name: "echo", arguments: { text: "hi" } }],
              usage: { input: 30, output: 9 }
            }
          )
          const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }]
          const text = yield* Effect.promise(() => model.doGenerate({ prompt }))
          const call = yield* Effect.promise(() =>
            model.doGenerate({
              prompt,
              tools: [{
                type: "function",
                name: "echo",
                inputSchema: { type: "object", properties: { text: { type: "string" } } }
              }]
            })
          )
          const requests = upstream.requests.slice(-2)
          for (const request of requests) {
            assert.strictEqual(spec.keyOf(request), spec.apiKey)
            assert.strictEqual(request.model, firstModel)
            if (spec.wholeAnswers) assert.isFalse(request.streaming)
          }
          expect(text.content).toEqual([expect.objectContaining({ type: "text", text: "Hello from the provider." })])
          expect(text.usage.inputTokens).toMatchObject({ total: 21, cacheRead: 4 })
          expect(text.usage.outputTokens.total).toBe(6)
          expect(text.finishReason.unified).toBe("stop")
          const calls = call.content.filter((part): part is Extract<LanguageModelV4Content, { type: "tool-call" }> =>
            part.type === "tool-call"
          )
          expect(calls.map((part) => [part.toolName, JSON.parse(part.input)])).toEqual([["echo", { text: "hi" }]])
          expect(call.finishReason.unified).toBe("tool-calls")
          expect(call.usage.inputTokens.total).toBe(30)
        })
    )
  })

  describe(`provider type ${spec.type}: POST /api/v1/chat end to end`, () => {
    let upstream: ScriptedUpstream
    let gateway: TestGateway
    let secret: string
    const model = `p/${firstModel}`

    beforeAll(async () => {
      upstream = await spec.startUpstream(spec.apiKey)
      // The provider as the config file and the variable make it.
      const config = await Effect.runPromise(loadAppConfig({
        PARLEY_CONFIG: writeConfigFile({ providers: [{ id: "p", type: spec.type, baseURL: upstream.url, ...listed }] }),
        [variable]: spec.apiKey,
        ...environment
      }))
      gateway = await startGateway({ tools: [echo], providers: config.providers })
      ;({ secret } = await gateway.createKey())
    })
    afterAll(async () => {
      await gateway.close()
      await upstream.close()
    })

    const chat = async (body: Record<string, unknown>) => {
      const response = await postJson(`${gateway.url}/api/v1/chat`, {
        model,
        messages: [{ role: "user", content: "Say ping through echo." }],
        systemPrompt: SYSTEM,
        ...body
      }, bearer(secret))
      return { response, body: await response.json() }
    }

    it.live("JSON: runs the tool call on the server, answers with text and the usage of both steps", () =>
      Effect.promise(async () => {
        const before = upstream.requests.length
        upstream.enqueue(...toolLoop(spec))
        const { body, response } = await chat({ stream: false, allowedTools: ["echo"] })
        expect(response.status).toBe(200)
        const parts = body.data.messages[1].parts
        expect(parts.find((part: { type: string }) => part.type === "dynamic-tool")).toMatchObject({
          toolName: "echo",
          state: "output-available",
          input: { text: "ping" },
          output: { echoed: "ping" }
        })
        expect(
          parts.filter((part: { type: string }) => part.type === "text").map((part: { text: string }) => part.text)
        )
          .toEqual(["The tool said ping."])
        expect(body.data.usage).toEqual(spec.toolLoopUsage)
        expect(body.data.finished).toBe(true)
        const sent = upstream.requests.slice(before)
        expect(sent.map((request) => spec.keyOf(request))).toEqual([spec.apiKey, spec.apiKey])
        expect(sent.map((request) => request.model)).toEqual([firstModel, firstModel])
        if (spec.thinkingSignature !== undefined) {
          expect(JSON.stringify(sent[1]!.body)).toContain(spec.thinkingSignature)
        }
        expect(JSON.stringify(body)).not.toContain(spec.apiKey)
      }))

    it.live("stream: the AI SDK client reads the same message as the JSON answer", () =>
      Effect.promise(async () => {
        upstream.enqueue(...toolLoop(spec))
        const json = await chat({ stream: false, allowedTools: ["echo"] })
        upstream.enqueue(...toolLoop(spec))
        const streamed = await chatThroughAiSdk(
          gateway.url,
          secret,
          [{ id: "u1", role: "user", parts: [{ type: "text", text: "Say ping through echo." }] }],
          { model, allowedTools: ["echo"], systemPrompt: SYSTEM }
        )
        // Item ids the upstream numbers on (xAI's `itemId`) differ between the two runs.
        expect(renumber(withoutIds(streamed.message), ["itemId"])).toEqual(
          renumber(withoutIds(json.body.data.messages[1]), ["itemId"])
        )
        expect(streamed.chunks.at(-1)).toMatchObject({
          type: "finish",
          messageMetadata: { finished: true, usage: json.body.data.usage }
        })
      }))

    it.live("a rate limit is retried after its Retry-After, then answered", () =>
      Effect.promise(async () => {
        const before = upstream.requests.length
        upstream.enqueue({ type: "error", status: 429, retryAfter: 0.3 }, { type: "text", text: "Finally." })
        const started = Date.now()
        const { body, response } = await chat({ stream: false })
        expect(response.status).toBe(200)
        expect(textOf(body.data.messages[1])).toBe("Finally.")
        expect(upstream.requests.length - before).toBe(2)
        expect(Date.now() - started).toBeGreaterThanOrEqual(300)
      }))

    it.live("rate limited on every retry: 503 naming the provider, before any stream starts", () =>
      Effect.promise(async () => {
        upstream.enqueue(
          ...Array.from({ length: 3 }, () => ({ type: "error" as const, status: 429, retryAfter: 0.01 }))
        )
        const { body, response } = await chat({ stream: true })
        expect(response.status).toBe(503)
        expect(response.headers.get("content-type")).toContain("application/json")
        expect(body).toMatchObject({
          error: "ServiceUnavailable",
          statusCode: 503,
          details: { provider: "p", status: 429 }
        })
      }))

    it.live.skipIf(spec.streamErrors !== true)(
      "an error event the stream begins with: retried when transient, else 500 with its message",
      () =>
        Effect.promise(async () => {
          const before = upstream.requests.length
          upstream.enqueue({ type: "stream-error", status: 503, message: "The model is overloaded." }, {
            type: "text",
            text: "Recovered."
          })
          const recovered = await chat({ stream: false })
          expect(recovered.response.status).toBe(200)
          expect(textOf(recovered.body.data.messages[1])).toBe("Recovered.")
          expect(upstream.requests.length - before).toBe(2)

          upstream.enqueue({ type: "stream-error", status: 400, message: `Invalid argument for key ${spec.apiKey}` })
          const refused = await chat({ stream: false })
          expect(refused.response.status).toBe(500)
          expect(refused.body.message).toContain("Invalid argument for key")
          expect(JSON.stringify(refused.body)).not.toContain(spec.apiKey)
          expect(upstream.requests.length - before).toBe(3)
        })
    )

    it.live("a refused request: 500 with the provider's message, its secrets redacted", () =>
      Effect.promise(async () => {
        const before = upstream.requests.length
        upstream.enqueue({ type: "error", status: 400, message: `API key expired: ${spec.apiKey}. Renew it.` })
        const { body, response } = await chat({ stream: false })
        expect(response.status).toBe(500)
        expect(body.error).toBe("InternalServerError")
        expect(body.message).toContain("API key expired")
        expect(body.details.error).toContain("HTTP 400")
        expect(JSON.stringify(body)).not.toContain(spec.apiKey)
        // Not retried: asking again would not help.
        expect(upstream.requests.length - before).toBe(1)
      }))
  })

  describe(`provider type ${spec.type}: oracle`, () => {
    let mine: ScriptedUpstream
    let sdk: ScriptedUpstream
    let gateway: TestGateway
    let secret: string

    beforeAll(async () => {
      ;[mine, sdk] = await Promise.all([spec.startUpstream(spec.apiKey), spec.startUpstream(spec.apiKey)])
      gateway = await startGateway({
        tools: [echo],
        providers: [{
          id: "p",
          type: spec.type,
          baseURL: mine.url,
          apiKey: Redacted.make(spec.apiKey),
          models: catalog,
          ...spec.providerSettings
        } as ProviderConfig]
      })
      ;({ secret } = await gateway.createKey())
    })
    afterAll(async () => {
      await gateway.close()
      await Promise.all([mine.close(), sdk.close()])
    })

    it.live("streamText over the same upstream gives the same text, tool calls and usage as parley", () =>
      Effect.promise(async () => {
        mine.enqueue(...toolLoop(spec))
        sdk.enqueue(...toolLoop(spec))
        const messages: Array<UIMessage> = [{
          id: "u1",
          role: "user",
          parts: [{ type: "text", text: "Say ping through echo." }]
        }]
        const parley = await chatThroughAiSdk(gateway.url, secret, messages, {
          model: `p/${firstModel}`,
          allowedTools: ["echo"],
          systemPrompt: SYSTEM
        })
        const reference = await referenceRun(spec.sdkModel(sdk.url, spec.apiKey, firstModel), [echo], {
          system: SYSTEM,
          messages,
          maxSteps: 30
        })
        assert.isUndefined(reference.thrown)

        // parley forwards no provider's custom content (StepTranslator): Anthropic's `anthropic.message_start`
        // (its message id, model and raw usage) is for the AI SDK's callers only.
        const forwarded = reference.chunks.filter((chunk) => chunk.type !== "custom")
        expect(renumber(normalize(parley.chunks), ["toolCallId"])).toEqual(
          renumber(normalize(forwarded), ["toolCallId"])
        )
        // What each sent the provider, step by step: the history of the tool loop included.
        const bodies = (upstream: ScriptedUpstream) =>
          renumber(upstream.requests.map((request) => request.body), ["id"])
        expect(bodies(mine)).toEqual(bodies(sdk))
        if (spec.thinkingSignature !== undefined) {
          expect(JSON.stringify(mine.requests[1]!.body)).toContain(spec.thinkingSignature)
        }

        const referenceMessage = await messageOf(reference.chunks)
        expect(textOf(parley.message)).toBe("The tool said ping.")
        expect(textOf(referenceMessage)).toBe("The tool said ping.")
        expect(toolCallsOf(parley.message)).toEqual([
          { toolName: "echo", input: { text: "ping" }, state: "output-available" }
        ])
        expect(toolCallsOf(parley.message)).toEqual(toolCallsOf(referenceMessage))
        const usage = reference.usage!
        expect(finishUsage(parley.chunks)).toEqual({
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          totalTokens: usage.totalTokens,
          reasoningTokens: usage.outputTokenDetails.reasoningTokens,
          cachedInputTokens: usage.inputTokenDetails.cacheReadTokens
        })
      }))
  })
}
