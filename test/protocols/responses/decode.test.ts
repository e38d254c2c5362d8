import { assert, describe, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { decodeResponsesRequest } from "../../../src/protocols/responses/decode.ts"
import { plainResponsesRequest } from "../../../src/protocols/responses/plainBody.ts"
import { ResponsesRequest } from "../../../src/protocols/responses/request.ts"
import { doorDecoderProperties } from "../../support/doorProperties.ts"
import { plainishBodies, validBodies } from "./generators.ts"

const body = (extra: Record<string, unknown> = {}) => ({ model: "test/m1", input: "Hi", ...extra })
const call = { type: "function_call", call_id: "c1", name: "f", arguments: "{}" }
const user = { role: "user", content: "x" }

const issues = (value: unknown) => Effect.map(Effect.flip(decodeResponsesRequest(value)), (error) => error.issues)

describe("decodeResponsesRequest", () => {
  it.effect.each(
    [
      [{ input: "x" }, `"model" is required`],
      [{ model: "test/m1" }, `"input" is required`],
      [body({ conversation: "conv_1" }), `"conversation" is not supported: parley keeps no conversation objects`],
      [body({ background: true, store: false }), `"background": a background response is stored`],
      [body({ mystery: 1 }), `"mystery" is not a known field`],
      [body({ temperature: 3 }), `"temperature" must be a number from 0 to 2`],
      [
        body({ tools: [{ type: "mcp", server_label: "docs", authorization: "tok" }] }),
        `"tools[0].authorization" is not taken`
      ],
      [
        body({ tools: [{ type: "mcp", server_label: "docs", allowed_tools: { read_only: true } }] }),
        `"tools[0].allowed_tools.read_only" is not taken`
      ],
      [
        body({ tools: [{ type: "mcp", server_label: "docs" }, { type: "mcp", server_label: "docs" }] }),
        `"tools[1].server_label" repeats the label "docs"`
      ],
      [
        body({
          input: [{ type: "mcp_approval_request", id: "apr_1", server_label: "parley", name: "x", arguments: "{}" }]
        }),
        `"input[0].id" is not the id of an mcp_approval_request parley sent`
      ],
      [body({ input: [call] }), `"input[0]" (call_id "c1") has no function_call_output`],
      [body({ input: [call, user] }), `"input[0]" (call_id "c1") has no function_call_output`],
      [
        body({ input: [{ type: "function_call_output", call_id: "c9", output: "r" }] }),
        `"input[0]" answers call_id "c9"`
      ],
      [body({ input: [{ ...call, arguments: "{" }, user] }), `"input[0].arguments" must be JSON`],
      // A known type half-sent is the schema's to name, never the mapping's to trip on.
      [body({ input: [{ type: "function_call", name: "f" }] }), `"input[0].call_id" is required`],
      [body({ input: [{ type: "message", content: "x" }] }), `"input[0].role" is required`],
      [
        body({ input: [{ role: "user", content: [{ type: "input_text" }] }] }),
        `"input[0].content[0].text" is required`
      ],
      [body({ tools: [{ type: "function", name: "bad name" }] }), `"tools[0].name" must be 1 to 64`],
      [body({ input: [{ type: "item_reference", id: "msg_1" }] }), `"input[0]" is a item_reference item`],
      [
        body({ input: [{ type: "mcp_approval_response", approval_request_id: "a", approve: true }] }),
        `"input[0]" answers approval_request_id "a", which no mcp_approval_request before it made`
      ],
      [
        body({ input: [{ role: "user", content: [{ type: "input_file", file_id: "f" }] }] }),
        `"input[0].content[0]" is a input_file part`
      ],
      [
        body({ input: [{ role: "user", content: [{ type: "input_image", file_id: "f" }] }] }),
        `"input[0].content[0]" has no image_url`
      ]
    ] as const
  )("%j → %s", ([value, start]) =>
    Effect.gen(function*() {
      const found = yield* issues(value)
      assert.isTrue(found.some((issue) => issue.startsWith(start)), found.join("; "))
    }))

  it.effect("maps the settings, the system prompt, the tools and what to skip", () =>
    Effect.gen(function*() {
      const { request, wire } = yield* decodeResponsesRequest(body({
        instructions: "Be brief.",
        input: [{ type: "message", role: "developer", content: "And kind." }, user],
        temperature: 0.5,
        top_p: 0.9,
        max_output_tokens: 100,
        reasoning: { effort: "low", summary: "auto" },
        text: { format: { type: "json_schema", name: "out", schema: { type: "object" } } },
        tools: [
          { type: "function", name: "lookup", parameters: { type: "object" }, strict: true },
          { type: "web_search" },
          { type: "custom", name: "apply_patch" }
        ],
        tool_choice: { type: "function", name: "lookup" },
        store: true
      }))
      assert.strictEqual(request.systemPrompt, "Be brief.\n\nAnd kind.")
      assert.deepStrictEqual(request.settings, {
        temperature: 0.5,
        topP: 0.9,
        responseFormat: { type: "json", name: "out", schema: { type: "object" } },
        reasoning: "low"
      })
      assert.strictEqual(request.maxOutputTokens, 100)
      assert.deepStrictEqual(request.toolChoice, { type: "tool", toolName: "lookup" })
      assert.deepStrictEqual(request.clientTools?.map((tool) => tool.name), ["lookup"])
      assert.deepStrictEqual(request.skippedTools, ["web_search", "apply_patch"])
      assert.deepStrictEqual(wire.origins, [1])
    }))

  it.effect("allowed_tools: only the named function tools are offered; a name not offered, or parley's tools beside it, refused", () =>
    Effect.gen(function*() {
      const tools = [
        { type: "function", name: "lookup", parameters: { type: "object" } },
        { type: "function", name: "clock", parameters: { type: "object" } }
      ]
      const allowed = (names: ReadonlyArray<string>, mode?: string) => ({
        type: "allowed_tools",
        tools: names.map((name) => ({ type: "function", name })),
        ...(mode === undefined ? {} : { mode })
      })
      const { request, wire } = yield* decodeResponsesRequest({
        model: "test/m1",
        input: "hi",
        tools,
        tool_choice: allowed(["clock"], "required")
      })
      assert.deepStrictEqual(request.clientTools?.map((tool) => tool.name), ["clock"])
      assert.deepStrictEqual(request.clientTools?.map((tool) => tool.path), ["tools[1].name"])
      assert.deepStrictEqual(request.toolChoice, { type: "required" })
      assert.deepStrictEqual(wire.echo.tool_choice, { ...allowed(["clock"]), mode: "required" })
      assert.deepStrictEqual(
        yield* issues({ model: "test/m1", input: "hi", tools, tool_choice: allowed(["lookup", "nope"]) }),
        [`"tool_choice.tools[1].name": no function tool 'nope' in tools: name one the request offers`]
      )
      const beside = yield* issues({
        model: "test/m1",
        input: "hi",
        tools,
        allowedTools: ["echo"],
        tool_choice: allowed(["lookup"])
      })
      assert.match(beside[0]!, /^"tool_choice": allowed_tools permits function tools only/)
      assert.match(
        (yield* issues({ model: "test/m1", input: "hi", tools, tool_choice: allowed([]) }))[0]!,
        /tool_choice/
      )
    }))

  it.effect("keeps reasoning with text for the provider, with its id and encrypted content; drops one without", () =>
    Effect.gen(function*() {
      const { request } = yield* decodeResponsesRequest(body({
        input: [
          user,
          { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Hm." }], encrypted_content: "enc" },
          { type: "reasoning", id: "rs_2", summary: [], encrypted_content: "only" },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "Hi." }] },
          user
        ]
      }))
      assert.deepStrictEqual(request.messages[1], {
        role: "assistant",
        content: [
          {
            type: "reasoning",
            text: "Hm.",
            providerOptions: { openai: { itemId: "rs_1", reasoningEncryptedContent: "enc" } }
          },
          { type: "text", text: "Hi." }
        ]
      })
    }))
})

const knownFields = Object.keys(ResponsesRequest.fields)

describe("decodeResponsesRequest: properties", () => {
  it.effect.prop(
    "any valid body decodes, every function call answered",
    [validBodies],
    ([value]) =>
      Effect.gen(function*() {
        const { request } = yield* decodeResponsesRequest(value)
        assert.strictEqual(request.model, value.model)
        assert.strictEqual(request.stream, value.stream === true)
        const outputs = typeof value.input === "string"
          ? 0
          : value.input.filter((item: { type?: string }) => item.type === "function_call_output").length
        const results = request.messages.flatMap((message) => message.role === "tool" ? message.content : [])
        assert.strictEqual(results.length, outputs)
        assert.isTrue(results.every((part) => part.type === "tool-result" && part.output.type === "text"))
        assert.isUndefined(request.conversationProblem)
      })
  )

  doorDecoderProperties(decodeResponsesRequest, validBodies, knownFields)
})

describe("plainResponsesRequest: the schema's result for plain bodies, without the schema", () => {
  const bySchema = Schema.decodeUnknownResult(ResponsesRequest, { errors: "all" })

  it("takes the common body", () => {
    const common = { model: "bench/text", input: "Hello", stream: true, store: false }
    assert.deepStrictEqual(plainResponsesRequest(common), Result.getOrThrow(bySchema(common)))
  })

  it.each([
    [body({ input: [user] })],
    [body({ background: true })],
    [body({ previous_response_id: "resp_1" })],
    [body({ tools: [] })],
    [body({ stream: "true" })],
    [body({ instructions: 1 })],
    [body({ model: "m1" })]
  ])("leaves %j to the schema", (value) => assert.isUndefined(plainResponsesRequest(value)))

  it.prop(
    "agrees with the schema wherever it decides, field order included",
    [plainishBodies],
    ([value]) => {
      const plain = plainResponsesRequest(value)
      if (plain === undefined) return
      const decoded = bySchema(value)
      assert.isTrue(Result.isSuccess(decoded))
      assert.deepStrictEqual(plain, Result.getOrThrow(decoded))
      assert.strictEqual(JSON.stringify(plain), JSON.stringify(Result.getOrThrow(decoded)))
    },
    { arbitrary: { runs: 2_000 } }
  )
})
