import { assert, describe, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { decodeMessagesRequest } from "../../../src/protocols/messages/decode.ts"
import { plainMessagesRequest } from "../../../src/protocols/messages/plainBody.ts"
import { CountTokensRequest, MessagesRequest } from "../../../src/protocols/messages/request.ts"
import { doorDecoderProperties } from "../../support/doorProperties.ts"
import { plainishBodies, validBodies } from "./generators.ts"

const user = [{ role: "user", content: "Hi" }]
const body = (extra: Record<string, unknown> = {}) => ({ model: "test/m1", max_tokens: 10, messages: user, ...extra })
const use = { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] }

const issues = (value: unknown) => Effect.map(Effect.flip(decodeMessagesRequest(value)), (error) => error.issues)

describe("decodeMessagesRequest", () => {
  it.effect.each(
    [
      [{ model: "test/m1", messages: user }, `"max_tokens" is required`],
      [body({ container: "c1" }), `"container" is not supported`],
      [
        body({ mcp_servers: [{ type: "url", name: "parley", authorization_token: "t" }] }),
        `"mcp_servers[0].authorization_token" is not taken`
      ],
      [
        body({ mcp_servers: [{ type: "url", name: "a" }, { type: "url", name: "a" }] }),
        `"mcp_servers[1].name" repeats the server name "a"`
      ],
      [
        body({
          messages: [{
            role: "assistant",
            content: [{ type: "mcp_tool_result", tool_use_id: "u9", content: "r" }]
          }]
        }),
        `"messages[0].content[0]" answers mcp_tool_use "u9"`
      ],
      [body({ mystery: 1 }), `"mystery" is not a known field`],
      [body({ temperature: 3 }), `"temperature" must be a number from 0 to 1`],
      [body({ messages: [use] }), `"messages[0]" has a tool_use (id "t1") that no tool_result answers`],
      [body({ messages: [use, { role: "assistant", content: "x" }] }), `"messages[0]" has tool_use blocks`],
      [
        body({ messages: [use, { role: "user", content: "x" }] }),
        `"messages[0]" has a tool_use (id "t1") without a tool_result in "messages[1]"`
      ],
      [
        body({ messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "r" }] }] }),
        `"messages[0].content[0]" answers tool_use "x"`
      ],
      [
        body({ messages: [{ role: "user", content: [{ type: "document", source: {} }] }] }),
        `"messages[0].content[0]" is a document block`
      ],
      [body({ messages: [{ role: "user", content: "x", extra: 1 }] }), `"messages[0].extra" is not a known field`]
    ] as const
  )("%j → %s", ([value, start]) =>
    Effect.gen(function*() {
      const found = yield* issues(value)
      assert.isTrue(found.some((issue) => issue.startsWith(start)), found.join("; "))
    }))

  it.effect("takes what Claude Code sends that asks for nothing parley must do", () =>
    Effect.gen(function*() {
      const { request } = yield* decodeMessagesRequest(body({
        messages: [{ role: "system", content: "From the beta." }, ...user],
        thinking: { type: "adaptive" },
        output_config: { effort: "high" },
        context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] },
        metadata: { user_id: "u" },
        service_tier: "auto",
        stream: true
      }))
      assert.strictEqual(request.systemPrompt, "From the beta.")
      assert.deepStrictEqual(request.settings, { reasoning: "high" })
    }))

  it.effect("maps the settings, the system prompt, the thinking budget and the tools", () =>
    Effect.gen(function*() {
      const { request, wire } = yield* decodeMessagesRequest(body({
        system: [{ type: "text", text: "Be brief." }],
        messages: [{ role: "system", content: "And kind." }, ...user],
        temperature: 0.5,
        top_k: 5,
        stop_sequences: ["END"],
        thinking: { type: "enabled", budget_tokens: 2_000 },
        tools: [
          { name: "lookup", input_schema: { type: "object" } },
          { type: "web_search_20250305", name: "web_search" }
        ],
        tool_choice: { type: "tool", name: "lookup" }
      }))
      assert.strictEqual(request.systemPrompt, "Be brief.\n\nAnd kind.")
      assert.deepStrictEqual(request.settings, {
        temperature: 0.5,
        topK: 5,
        stopSequences: ["END"],
        reasoning: "low"
      })
      assert.strictEqual(request.maxOutputTokens, 10)
      assert.deepStrictEqual(request.toolChoice, { type: "tool", toolName: "lookup" })
      assert.deepStrictEqual(request.clientTools?.map((tool) => tool.name), ["lookup"])
      assert.deepStrictEqual(request.skippedTools, ["web_search"])
      assert.deepStrictEqual(wire.origins, [1])
      assert.isFalse(wire.hosted)
    }))

  it.effect("takes mcp_servers as the doors' hosted asks, a disabled server with no tools", () =>
    Effect.gen(function*() {
      const { asks, wire } = yield* decodeMessagesRequest(body({
        mcp_servers: [
          { type: "url", name: "parley" },
          { type: "url", name: "docs", url: "https://docs.example/mcp", tool_configuration: { allowed_tools: ["q"] } },
          { type: "url", name: "off", tool_configuration: { enabled: false, allowed_tools: ["q"] } }
        ]
      }))
      assert.deepStrictEqual(asks, [
        { label: "parley", path: "mcp_servers[0]" },
        { label: "docs", path: "mcp_servers[1]", url: "https://docs.example/mcp", allowedTools: ["q"] },
        { label: "off", path: "mcp_servers[2]", allowedTools: [] }
      ])
      assert.isTrue(wire.hosted)
    }))
})

const knownFields = Object.keys(MessagesRequest.fields)

describe("decodeMessagesRequest: properties", () => {
  it.effect.prop("any valid body decodes, its conversation whole", [validBodies], ([value]) =>
    Effect.gen(function*() {
      const { request } = yield* decodeMessagesRequest(value)
      assert.strictEqual(request.model, value.model)
      assert.strictEqual(request.stream, value.stream === true)
      const results = value.messages.flatMap((message: { content: unknown }) =>
        Array.isArray(message.content) ? message.content : []
      ).filter((block: { type: string }) => block.type === "tool_result").length
      const answers = request.messages.flatMap((message) => message.role === "tool" ? message.content : [])
      assert.strictEqual(answers.length, results)
      assert.isTrue(answers.every((part) => part.type === "tool-result" && part.output.type.endsWith("text")))
      assert.strictEqual(request.origins.length, request.messages.length)
    }))

  doorDecoderProperties(decodeMessagesRequest, validBodies, knownFields)
})

describe("plainMessagesRequest: the schema's result for plain bodies, without the schema", () => {
  const bySchema = Schema.decodeUnknownResult(MessagesRequest, { errors: "all" })
  const countBySchema = Schema.decodeUnknownResult(CountTokensRequest, { errors: "all" })

  it("takes the common body", () => {
    const common = {
      model: "bench/text",
      max_tokens: 1024,
      messages: [{ role: "user", content: "Hello" }],
      stream: true
    }
    assert.deepStrictEqual(plainMessagesRequest(common), Result.getOrThrow(bySchema(common)))
  })

  it.each([
    [body({ temperature: 0.5 })],
    [body({ max_tokens: 0 })],
    [body({ max_tokens: 1.5 })],
    [body({ system: [{ type: "text", text: "Be brief." }] })],
    [body({ messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] })],
    [body({ messages: [{ role: "user", content: "Hi", cache_control: null }] })],
    [body({ messages: [{ role: "tool", content: "Hi" }] })],
    [body({ model: "m1" })],
    [body({ stream: "true" })]
  ])("leaves %j to the schema", (value) => assert.isUndefined(plainMessagesRequest(value)))

  it.prop(
    "agrees with both schemas wherever it decides, field order included",
    [plainishBodies],
    ([value]) => {
      const plain = plainMessagesRequest(value)
      if (plain === undefined) return
      for (const decoded of [bySchema(value), countBySchema(value)]) {
        assert.isTrue(Result.isSuccess(decoded))
        assert.deepStrictEqual(plain, Result.getOrThrow(decoded))
        assert.strictEqual(JSON.stringify(plain), JSON.stringify(Result.getOrThrow(decoded)))
      }
    },
    { arbitrary: { runs: 2_000 } }
  )
})
