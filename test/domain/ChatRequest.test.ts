import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit, Result, Schema } from "effect"
import { ChatRequest, decodeChatRequest, decodePlainChatRequest, parseJsonBody } from "../../src/domain/ChatRequest.ts"
import { InvalidRequest, MalformedJson } from "../../src/domain/requestErrors.ts"
import { mutatedBodies, plainishBodies, validBodies, viaJson } from "./generators.ts"

const messages = [{ role: "user", content: "Hello" }]

const failure = (body: unknown) => Effect.flip(decodeChatRequest(body))

/** Decoding never dies: it succeeds or fails with an InvalidRequest. */
const decodesOrRejects = (body: unknown) =>
  Effect.gen(function*() {
    const exit = yield* Effect.exit(decodeChatRequest(body))
    if (Exit.isFailure(exit)) {
      const error = yield* Effect.flip(exit)
      assert.instanceOf(error, InvalidRequest)
      assert.isTrue(error.message.length > 0)
      assert.isTrue(error.issues.length > 0)
    }
    return exit
  })

describe("decodeChatRequest: rules 1 and 2", () => {
  it.effect.each(
    [
      [{ messages }, `Invalid request: "model" is required`],
      [{ model: "openai/gpt-4o" }, `Invalid request: "messages" is required`],
      [{ model: "openai/gpt-4o", messages: "hi" }, `Invalid request: "messages" must be an array`],
      [{ model: "openai/gpt-4o", messages: { role: "user" } }, `Invalid request: "messages" must be an array`],
      [{ model: "openai/gpt-4o", messages: null }, `Invalid request: "messages" must be an array`],
      [{ model: 42, messages }, `Invalid request: "model" must be a string`],
      [{}, `Invalid request: "model" is required`],
      [null, "Invalid request: body must be a JSON object"],
      [[{ model: "openai/gpt-4o", messages }], "Invalid request: body must be a JSON object"],
      ["openai/gpt-4o", "Invalid request: body must be a JSON object"]
    ] as const
  )("%j → %s", ([body, message]) =>
    Effect.gen(function*() {
      const error = yield* failure(body)
      assert.strictEqual(error.message, message)
      assert.include(error.issues.join("; "), message.replace("Invalid request: ", ""))
    }))

  it.effect.each([
    "gpt4",
    "openai/",
    "/gpt-4o",
    "openai//gpt-4o",
    "openai/gpt-4o/",
    "open ai/gpt-4o",
    "openai/gpt 4o",
    ""
  ])(
    "rejects model %j",
    (model) =>
      Effect.gen(function*() {
        const error = yield* failure({ model, messages })
        assert.strictEqual(error.message, `Invalid model format ${JSON.stringify(model)}: expected <provider>/<model>`)
      })
  )

  it.effect.each([
    "openai/gpt-4o",
    "anthropic/claude-sonnet-4-5",
    "openrouter/meta-llama/llama-3.1-70b",
    "local/m1:latest"
  ])(
    "accepts model %j (provider before the first slash, model the rest)",
    (model) => Effect.map(decodeChatRequest({ model, messages }), (chat) => assert.strictEqual(chat.model, model))
  )

  it.effect("lists every problem with its path", () =>
    Effect.gen(function*() {
      const error = yield* failure({
        model: "openai/gpt-4o",
        messages: [{ role: "bot", content: "x" }, { role: "user" }],
        stream: "yes",
        pruneOptions: { targetTokens: 1.5, preserveRecentMessages: -1 }
      })
      assert.strictEqual(error.message, `Invalid request: "messages[0].role": Expected "user" | "assistant" | "system"`)
      const detail = error.issues.join("; ")
      assert.include(detail, `"messages[1]" needs "content" (simplified form) or "parts" (full UIMessage form)`)
      assert.include(detail, `"stream" must be a boolean`)
      assert.include(detail, `"pruneOptions.targetTokens" must be an integer`)
      assert.include(detail, `"pruneOptions.preserveRecentMessages" must not be negative`)
    }))
})

describe("decodeChatRequest: fields and defaults", () => {
  it.effect("fills the spec's defaults", () =>
    Effect.gen(function*() {
      const chat = yield* decodeChatRequest({ model: "openai/gpt-4o", messages })
      assert.deepStrictEqual<unknown>(chat, {
        model: "openai/gpt-4o",
        messages,
        stream: true,
        prune: false,
        pruneOptions: { targetTokens: 80_000, preserveRecentMessages: 3 },
        contextStrategy: "error",
        validateOnly: false
      })
    }))

  it.effect("keeps every optional field; promptType is any string here (checked later)", () =>
    Effect.gen(function*() {
      const body = {
        model: "openai/gpt-4o",
        messages,
        stream: false,
        prune: true,
        pruneOptions: { targetTokens: 5000 },
        systemPrompt: "Be brief.",
        promptType: "noSuchPromptType",
        allowedTools: ["bash"],
        contextStrategy: "skip",
        sandboxId: null,
        context: { preferredBrand: "Acme", partnerToken: null, ownToolField: { a: 1 } },
        toolContext: { bash: { cwd: "/work" } },
        validateOnly: true
      }
      const chat = yield* decodeChatRequest(body)
      assert.deepStrictEqual<unknown>(chat, {
        ...body,
        contextStrategy: "skip",
        pruneOptions: { targetTokens: 5000, preserveRecentMessages: 3 }
      })
    }))

  it.effect("rejects a wrong contextStrategy and a non-object toolContext entry", () =>
    Effect.gen(function*() {
      const error = yield* failure({ model: "a/b", messages, contextStrategy: "ignore", toolContext: { bash: "x" } })
      assert.strictEqual(error.message, `Invalid request: "contextStrategy": Expected "error" | "skip" | "report"`)
      assert.include(error.issues.join("; "), `"toolContext.bash": Expected object`)
    }))

  it.effect("a __proto__ key in the body stays data and pollutes nothing", () =>
    Effect.gen(function*() {
      const body = yield* parseJsonBody(
        `{"model":"a/b","messages":[],"context":{"__proto__":{"polluted":true}},"toolContext":{"__proto__":{"x":1}}}`
      )
      const chat = yield* decodeChatRequest(body)
      assert.deepStrictEqual(Object.getOwnPropertyNames(chat.context), ["__proto__"])
      assert.isUndefined(({} as Record<string, unknown>)["polluted"])
    }))
})

describe("parseJsonBody", () => {
  it.effect("parses JSON", () =>
    Effect.map(parseJsonBody(`{"model":"a/b"}`), (body) => assert.deepStrictEqual(body, { model: "a/b" })))

  it.effect.each(["{", "", "{'model': 1}", "[1,]"])("malformed %j is MalformedJson", (text) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(parseJsonBody(text))
      assert.instanceOf(error, MalformedJson)
      assert.match(error.message, /^Malformed JSON body: .+/)
    }))
})

describe("decodeChatRequest: properties", () => {
  it.effect.prop(
    "any JSON value decodes or is an InvalidRequest, never a defect",
    [Arbitrary.schema(Schema.Json)],
    ([json]) =>
      Effect.gen(function*() {
        const exit = yield* decodesOrRejects(json)
        if (typeof json !== "object" || json === null || Array.isArray(json)) {
          assert.isTrue(Exit.isFailure(exit))
        }
      })
  )

  it.effect.prop(
    "a mutated valid body decodes or is a specific InvalidRequest",
    [mutatedBodies],
    ([{ body, field, remove, value }]) =>
      Effect.gen(function*() {
        const mutated: Record<string, unknown> = { ...body }
        if (remove) delete mutated[field]
        else mutated[field] = value
        const exit = yield* decodesOrRejects(viaJson(mutated))
        const message = Exit.isFailure(exit) ? (yield* Effect.flip(exit)).message : undefined
        if (field === "model" && remove) assert.strictEqual(message, `Invalid request: "model" is required`)
        if (field === "messages" && remove) assert.strictEqual(message, `Invalid request: "messages" is required`)
        if (field === "messages" && !remove && !Array.isArray(value)) {
          assert.strictEqual(message, `Invalid request: "messages" must be an array`)
        }
        if (field === "model" && !remove && typeof value !== "string") {
          assert.strictEqual(message, `Invalid request: "model" must be a string`)
        }
      })
  )

  it.effect.prop(
    "valid bodies decode, keep their fields and round-trip",
    [validBodies],
    ([body]) =>
      Effect.gen(function*() {
        const chat = yield* decodeChatRequest(body)
        assert.strictEqual(chat.model, body.model)
        assert.deepStrictEqual(chat.messages, body.messages)
        assert.strictEqual(chat.stream, body.stream ?? true)
        assert.strictEqual(chat.prune, body.prune ?? false)
        assert.strictEqual(chat.contextStrategy, body.contextStrategy ?? "error")
        assert.deepStrictEqual(chat.context, body.context)
        const encoded = yield* Schema.encodeEffect(ChatRequest)(chat)
        assert.deepStrictEqual(yield* decodeChatRequest(viaJson(encoded)), chat)
      })
  )
})

describe("decodePlainChatRequest: the schema's result for plain bodies, without the schema", () => {
  const decodeBySchema = Schema.decodeUnknownResult(ChatRequest, { errors: "all" })

  it("takes the common body", () => {
    const body = { model: "bench/text", messages: [{ role: "user", content: "Hello" }], stream: false }
    assert.deepStrictEqual(decodePlainChatRequest(body), Result.getOrThrow(decodeBySchema(body)))
  })

  it.each([
    [{ model: "bench/text", messages, pruneOptions: {} }],
    [{ model: "bench/text", messages, id: "chat-1" }],
    [{ model: "bench/text", messages: [{ role: "user", content: "Hi", parts: [{ type: "text", text: "Hi" }] }] }],
    [{ model: "bench/text", messages: [{ role: "user", content: "Hi", metadata: {} }] }],
    [{ model: "bench/text", messages: [{ role: "tool", content: "Hi" }] }],
    [{ model: "gpt-4o", messages }],
    [{ model: "bench/text", messages, stream: "false" }],
    [Object.assign(Object.create(null), { model: "bench/text", messages, extra: 1 })]
  ])("leaves %j to the schema", (body) => assert.isUndefined(decodePlainChatRequest(body)))

  it.prop(
    "agrees with the schema wherever it decides, field order included",
    [plainishBodies],
    ([body]) => {
      const plain = decodePlainChatRequest(body)
      if (plain === undefined) return
      const bySchema = decodeBySchema(body)
      assert.isTrue(Result.isSuccess(bySchema))
      const decoded = Result.getOrThrow(bySchema)
      assert.deepStrictEqual(plain, decoded)
      assert.strictEqual(JSON.stringify(plain), JSON.stringify(decoded))
    },
    { arbitrary: { runs: 2_000 } }
  )
})
