import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MAX_JSON_DEPTH } from "../../src/domain/jsonDepth.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

/** JSON text nesting arrays and objects `depth` levels. */
const nested = (depth: number) => `${"[{\"a\":".repeat(depth / 2)}1${"}]".repeat(depth / 2)}`

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo" })] })
  gateway.upstream.respondWith(() => ({ type: "text", text: "ok" }))
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const chatCompletions = (args: string) => ({
  model: "test/m1",
  messages: [
    { role: "user", content: "Hi" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: args } }]
    },
    { role: "tool", tool_call_id: "call_1", content: "found" },
    { role: "user", content: "Thanks" }
  ]
})

const responses = (args: string) => ({
  model: "test/m1",
  input: [
    { role: "user", content: "Hi" },
    { type: "function_call", call_id: "call_1", name: "lookup", arguments: args },
    { type: "function_call_output", call_id: "call_1", output: "found" },
    { role: "user", content: "Thanks" }
  ]
})

const mcpCall = (args: string) => ({
  model: "test/m1",
  input: [
    { role: "user", content: "Hi" },
    {
      type: "mcp_call",
      id: "mcp_1",
      server_label: "parley",
      name: "echo",
      arguments: args,
      output: "{}",
      status: "completed"
    },
    { role: "user", content: "Thanks" }
  ]
})

const cases = [
  { door: "/v1/chat/completions", body: chatCompletions, field: "messages[1].tool_calls[0].function.arguments" },
  { door: "/v1/responses", body: responses, field: "input[1].arguments" },
  { door: "/v1/responses", body: mcpCall, field: "input[1].arguments" }
] as const

describe("JSON inside strings has a body's depth limit (issue 32 part 4, docs/DESIGN.md §3.9)", () => {
  for (const { body, door, field } of cases) {
    it(`${door}: "${field}" nested 10,000 levels is a 400 naming the field, never a 500`, async () => {
      for (const stream of [false, true]) {
        const response = await postJson(`${gateway.url}${door}`, { ...body(nested(10_000)), stream }, bearer(secret))
        const answer = await response.json()
        expect(response.status, JSON.stringify(answer)).toBe(400)
        expect(answer.error.message).toContain(`"${field}"`)
        expect(answer.error.message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`)
        expect(answer.error.type).toBe("invalid_request_error")
      }
    })

    it(`${door}: "${field}" at the limit is taken`, async () => {
      const response = await postJson(`${gateway.url}${door}`, body(nested(MAX_JSON_DEPTH - 2)), bearer(secret))
      expect(response.status, await response.text()).toBe(200)
    })
  }

  const asks = [
    {
      door: "/api/v1/chat",
      headers: bearer,
      body: (tools: object) => ({ model: "test/m1", messages: [{ role: "user", content: "Hi" }], ...tools })
    },
    {
      door: "/v1/chat/completions",
      headers: bearer,
      body: (tools: object) => ({ model: "test/m1", messages: [{ role: "user", content: "Hi" }], ...tools }),
      clientTool: { tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }] }
    },
    {
      door: "/v1/responses",
      headers: bearer,
      body: (tools: object) => ({ model: "test/m1", input: "Hi", ...tools }),
      clientTool: { tools: [{ type: "function", name: "lookup", parameters: { type: "object" } }] }
    },
    {
      door: "/v1/messages",
      headers: (key: string) => ({ "x-api-key": key }),
      body: (tools: object) => ({
        model: "test/m1",
        max_tokens: 100,
        messages: [{ role: "user", content: "Hi" }],
        ...tools
      }),
      clientTool: { tools: [{ name: "lookup", input_schema: { type: "object" } }] }
    }
  ]
  for (const { body, clientTool, door, headers } of asks) {
    for (const stream of [false, true]) {
      it(`${door}${stream ? " streamed" : ""}: a model's call of a server tool nested 10,000 levels is an invalid call the model is told of`, async () => {
        gateway.upstream.enqueue(
          { type: "tool-calls", calls: [{ id: "call_deep", name: "echo", arguments: nested(10_000) }] },
          { type: "text", text: "sorry" }
        )
        const response = await postJson(
          `${gateway.url}${door}`,
          { ...body({ allowedTools: ["echo"] }), stream },
          headers(secret)
        )
        const text = await response.text()
        expect(response.status, text.slice(0, 500)).toBe(200)
        expect(text).toContain("sorry")
        const told = JSON.stringify(gateway.upstream.requests.at(-1)!.body.messages)
        expect(told).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`)
      })

      if (clientTool === undefined) continue
      it(`${door}${stream ? " streamed" : ""}: a model's call of the client's tool nested 10,000 levels is handed back, never a 500`, async () => {
        gateway.upstream.enqueue({
          type: "tool-calls",
          calls: [{ id: "call_deep", name: "lookup", arguments: nested(10_000) }]
        })
        const response = await postJson(`${gateway.url}${door}`, { ...body(clientTool), stream }, headers(secret))
        const text = await response.text()
        expect(response.status, text.slice(0, 500)).toBe(200)
        expect(text).toContain("call_deep")
      })
    }
  }
})
