import { assert, describe, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { decodeCompletionRequest } from "../../../src/protocols/chat-completions/decode.ts"
import { plainCompletionRequest } from "../../../src/protocols/chat-completions/plainBody.ts"
import { CompletionRequest } from "../../../src/protocols/chat-completions/request.ts"
import { doorDecoderProperties } from "../../support/doorProperties.ts"
import { plainishBodies, validBodies } from "./generators.ts"

const user = [{ role: "user", content: "Hi" }]
const body = (extra: Record<string, unknown> = {}) => ({ model: "test/m1", messages: user, ...extra })

const issues = (value: unknown) => Effect.map(Effect.flip(decodeCompletionRequest(value)), (error) => error.issues)

describe("decodeCompletionRequest", () => {
  it.effect.each(
    [
      [body({ n: 2 }), `"n" is not supported: parley answers one choice: leave it out or send 1`],
      [body({ logprobs: true }), `"logprobs" is not supported: parley does not return log probabilities`],
      [body({ mystery: 1 }), `"mystery" is not a known field`],
      [body({ temprature: 1 }), `"temprature" is not a known field (did you mean "temperature"?)`],
      [body({ temperature: 3 }), `"temperature" must be a number from 0 to 2`],
      [body({ messages: [{ role: "tool", tool_call_id: "x", content: "r" }] }), `"messages[0]" is a tool message`],
      [
        body({
          messages: [{
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }]
          }]
        }),
        `"messages[0].tool_calls[0]" (id "c") has no answer`
      ],
      [
        body({ messages: [{ role: "function", name: "f", content: "x" }] }),
        `"messages[0].role" "function" is deprecated`
      ],
      [body({ messages: [{ role: "user", content: "x", extra: 1 }] }), `"messages[0].extra" is not a known field`]
    ] as const
  )("%j → %s", ([value, start]) =>
    Effect.gen(function*() {
      const found = yield* issues(value)
      assert.isTrue(found.some((issue) => issue.startsWith(start)), found.join("; "))
    }))

  it.effect("takes the defaults a client spells out", () =>
    Effect.gen(function*() {
      const { request } = yield* decodeCompletionRequest(
        body({ n: 1, logprobs: false, store: false, service_tier: "auto", modalities: ["text"] })
      )
      assert.strictEqual(request.model, "test/m1")
    }))

  it.effect("maps the settings, the leading instructions and the client's tools", () =>
    Effect.gen(function*() {
      const { request, wire } = yield* decodeCompletionRequest(body({
        messages: [{ role: "developer", content: "Be brief." }, ...user],
        temperature: 0.5,
        stop: "END",
        max_completion_tokens: 40,
        reasoning_effort: "low",
        response_format: { type: "json_schema", json_schema: { name: "a", schema: { type: "object" } } },
        tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }],
        tool_choice: { type: "function", function: { name: "lookup" } },
        stream: true,
        stream_options: { include_usage: true }
      }))
      assert.strictEqual(request.systemPrompt, "Be brief.")
      assert.deepStrictEqual(request.settings, {
        temperature: 0.5,
        stopSequences: ["END"],
        responseFormat: { type: "json", name: "a", schema: { type: "object" } },
        reasoning: "low"
      })
      assert.strictEqual(request.maxOutputTokens, 40)
      assert.deepStrictEqual(request.toolChoice, { type: "tool", toolName: "lookup" })
      assert.deepStrictEqual(request.clientTools?.map((tool) => tool.name), ["lookup"])
      assert.deepStrictEqual(wire, {
        model: "test/m1",
        includeUsage: true,
        origins: [1]
      })
    }))
})

const knownFields = Object.keys(CompletionRequest.fields)

describe("decodeCompletionRequest: properties", () => {
  it.effect.prop("any valid body decodes, its conversation whole", [validBodies], ([value]) =>
    Effect.gen(function*() {
      const { request } = yield* decodeCompletionRequest(value)
      assert.strictEqual(request.model, value.model)
      assert.strictEqual(request.stream, value.stream === true)
      const tools = value.messages.filter((message: { role: string }) => message.role === "tool").length
      const results = request.messages.flatMap((message) => message.role === "tool" ? message.content : [])
      assert.strictEqual(results.length, tools)
      assert.strictEqual(request.origins.length, request.messages.length)
    }))

  doorDecoderProperties(decodeCompletionRequest, validBodies, knownFields)
})

describe("plainCompletionRequest: the schema's result for plain bodies, without the schema", () => {
  const bySchema = Schema.decodeUnknownResult(CompletionRequest, { errors: "all" })

  it("takes the common body", () => {
    const common = {
      model: "bench/text",
      messages: [{ role: "user", content: "Hello" }],
      stream: true,
      stream_options: { include_usage: true }
    }
    assert.deepStrictEqual(plainCompletionRequest(common), Result.getOrThrow(bySchema(common)))
  })

  it.each([
    [{ model: "test/m1", messages: [{ role: "user", content: "Hi" }], temperature: 0.5 }],
    [{ model: "test/m1", messages: [{ role: "tool", content: "Hi" }] }],
    [{ model: "test/m1", messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] }],
    [{ model: "test/m1", messages: [{ role: "user", content: "Hi", name: "ann" }] }],
    [{ model: "test/m1", messages: [], stream_options: { include_usage: true, include_obfuscation: false } }],
    [{ model: "m1", messages: [] }],
    [{ model: "test/m1", messages: [], stream: "true" }]
  ])("leaves %j to the schema", (value) => assert.isUndefined(plainCompletionRequest(value)))

  it.prop(
    "agrees with the schema wherever it decides, field order included",
    [plainishBodies],
    ([value]) => {
      const plain = plainCompletionRequest(value)
      if (plain === undefined) return
      const decoded = bySchema(value)
      assert.isTrue(Result.isSuccess(decoded))
      assert.deepStrictEqual(plain, Result.getOrThrow(decoded))
      assert.strictEqual(JSON.stringify(plain), JSON.stringify(Result.getOrThrow(decoded)))
    },
    { arbitrary: { runs: 2_000 } }
  )
})
