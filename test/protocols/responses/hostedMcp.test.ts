import { Effect } from "effect"
import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contractSchema } from "../../support/contractSchemas.ts"
import type { TestGateway } from "../../support/gateway.ts"
import { postJson } from "../../support/http.ts"
import { type FakeServer, startHostedMcpGateway } from "../../support/mcp/hostedGateway.ts"
import { makeTestTool } from "../../support/tools.ts"

type Item = OpenAI.Responses.ResponseOutputItem
type InputItem = OpenAI.Responses.ResponseInputItem

let gateway: TestGateway
let dict: FakeServer
let stray: FakeServer
let close: () => Promise<void>
let secret: string
let otherSecret: string
let client: OpenAI
const ranDangerous: Array<unknown> = []

beforeAll(async () => {
  ;({ close, dict, gateway, stray } = await startHostedMcpGateway([
    makeTestTool({ name: "echo" }),
    makeTestTool({ name: "dangerous", execute: (input) => Effect.sync(() => (ranDangerous.push(input), "ran")) }),
    makeTestTool({ name: "secret" })
  ]))
  const keys = { tools: ["echo", "dangerous", "dict__*"], approve: ["dangerous"] }
  ;({ secret } = await gateway.createKey(keys))
  ;({ secret: otherSecret } = await gateway.createKey(keys))
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 })
}, 30_000)
afterAll(() => close?.())

const parley: OpenAI.Responses.Tool.Mcp = { type: "mcp", server_label: "parley" }
const offered = () => gateway.upstream.requests.at(-1)!.body.tools?.map((tool: any) => tool.function.name) ?? []
const callThen = (name: string, args: unknown, text = "Done.") => {
  gateway.upstream.enqueue({ type: "tool-calls", calls: [{ id: `call_${name}`, name, arguments: args }] })
  gateway.upstream.enqueue({ type: "text", text })
}
const post = async (body: Record<string, unknown>, key = secret) => {
  const response = await postJson(`${gateway.url}/v1/responses`, { model: "test/m1", input: "Hi", ...body }, {
    authorization: `Bearer ${key}`
  })
  return { status: response.status, body: await response.json() }
}

const echoCall = {
  type: "mcp_call",
  id: "call_echo",
  server_label: "parley",
  name: "echo",
  arguments: JSON.stringify({ text: "hi" }),
  output: JSON.stringify({ echoed: "hi", contextKeys: [] }),
  error: null,
  status: "completed"
}

describe("mcp tools on /v1/responses: parley's tools as hosted MCP tools (issue 21 part 3)", () => {
  it("runs parley's own tool and answers mcp_list_tools, mcp_call, then the message", async () => {
    callThen("echo", { text: "hi" })
    const response = await client.responses.create({ model: "test/m1", input: "Go", tools: [parley] })
    expect(response.status).toBe("completed")
    const [listed, call, message] = response.output as Array<any>
    expect(listed).toMatchObject({ type: "mcp_list_tools", server_label: "parley" })
    expect(listed.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(["dangerous", "echo"])
    expect(listed.tools[0].input_schema).toMatchObject({ type: "object" })
    expect(call).toEqual(echoCall)
    expect(message).toMatchObject({ type: "message", content: [{ type: "output_text", text: "Done." }] })
    expect(response.output_text).toBe("Done.")
    const validate = contractSchema("Response")
    // `output_text` is the SDK's own, not the wire's.
    expect(
      validate(JSON.parse(JSON.stringify({ ...response, output_text: undefined }))),
      JSON.stringify(validate.errors)
    )
      .toBe(true)
    // The key's tools, and only those: `secret` is off its allow-list.
    expect(offered().sort()).toEqual(["dangerous", "echo"])
  })

  it("streams the same items with the mcp_list_tools and mcp_call events in order", async () => {
    callThen("echo", { text: "hi" })
    const stream = client.responses.stream({ model: "test/m1", input: "Go", tools: [parley] })
    const events: Array<string> = []
    for await (const event of stream) events.push(event.type)
    const mcp = events.filter((type) => type.includes("mcp") || type.startsWith("response.output_item"))
    expect(mcp.slice(0, 10)).toEqual([
      "response.output_item.added",
      "response.mcp_list_tools.in_progress",
      "response.mcp_list_tools.completed",
      "response.output_item.done",
      "response.output_item.added",
      "response.mcp_call.in_progress",
      "response.mcp_call_arguments.delta",
      "response.mcp_call_arguments.done",
      "response.mcp_call.completed",
      "response.output_item.done"
    ])
    const response = await stream.finalResponse()
    expect(response.output[1]).toEqual(echoCall)
    expect(response.output_text).toBe("Done.")
  })

  it("runs a configured server's tool by its id, narrowed by allowed_tools", async () => {
    callThen("dict__lookup", { word: "parley" }, "Found it.")
    const response = await client.responses.create({
      model: "test/m1",
      input: "Look it up",
      tools: [{ type: "mcp", server_label: "dict", server_url: dict.url, allowed_tools: { tool_names: ["lookup"] } }]
    })
    expect(response.output.map((item) => item.type)).toEqual(["mcp_list_tools", "mcp_call", "message"])
    expect(response.output[0]).toMatchObject({ server_label: "dict", tools: [{ name: "lookup" }] })
    expect(response.output[1]).toMatchObject({
      type: "mcp_call",
      server_label: "dict",
      name: "lookup",
      output: `found ${JSON.stringify({ word: "parley" })}`,
      status: "completed"
    })
    expect(dict.calls.at(-1)).toEqual({ word: "parley" })
    expect(offered()).toEqual(["dict__lookup"])
  })

  it("answers 400 for a server_url that is not the configured server's own, and connects to nothing", async () => {
    const before = dict.headers.length
    for (
      const tool of [{ server_label: "dict", server_url: stray.url }, { server_label: "parley", server_url: stray.url }]
    ) {
      const { body, status } = await post({ tools: [{ type: "mcp", ...tool }] })
      expect(status).toBe(400)
      expect(body.error.type).toBe("invalid_request_error")
      expect(body.error.message).toContain(`"tools[0]"`)
    }
    expect(stray.headers).toEqual([])
    expect(dict.headers.length).toBe(before)
  })

  it("answers 400 naming the labels the key may use for an unknown label", async () => {
    const { body, status } = await post({ tools: [{ type: "mcp", server_label: "nowhere" }] })
    expect(status).toBe(400)
    expect(body.error.message).toContain("known: parley, dict")
  })

  it("refuses authorization and headers without repeating them", async () => {
    const token = "tok-secret-51ab"
    for (const [field, value] of [["authorization", token], ["headers", { "x-token": token }]] as const) {
      const { body, status } = await post({ tools: [{ type: "mcp", server_label: "dict", [field]: value }] })
      expect(status).toBe(400)
      expect(body.error.message).toContain(`"tools[0].${field}"`)
      expect(JSON.stringify(body)).not.toContain(token)
    }
  })

  it("shows an invalid call as a failed mcp_call, its error the model's too", async () => {
    callThen("echo", {}, "Could not.")
    const response = await client.responses.create({ model: "test/m1", input: "Go", tools: [parley] })
    expect(response.output[1]).toMatchObject({
      type: "mcp_call",
      name: "echo",
      status: "failed",
      output: null,
      error: { type: "mcp_tool_execution_error", content: [{ type: "text" }] }
    })
    expect(JSON.stringify((response.output[1] as any).error)).toContain("Invalid input for tool echo")
  })

  it("takes back earlier mcp_call items as the call and its result, and ignores mcp_list_tools", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Again?" })
    const response = await client.responses.create({
      model: "test/m1",
      tools: [parley],
      input: [
        { role: "user", content: "Echo hi" },
        { type: "mcp_list_tools", id: "mcpl_1", server_label: "parley", tools: [] },
        { ...echoCall, id: "call_e1", output: "hi" } as InputItem,
        { role: "assistant", content: "It said hi." },
        { role: "user", content: "Thanks" }
      ]
    })
    expect(response.output_text).toBe("Again?")
    const sent = gateway.upstream.requests.at(-1)!.body.messages
    expect(sent).toContainEqual(expect.objectContaining({
      role: "assistant",
      tool_calls: [expect.objectContaining({ id: "call_e1", function: expect.objectContaining({ name: "echo" }) })]
    }))
    expect(sent).toContainEqual(expect.objectContaining({ role: "tool", tool_call_id: "call_e1", content: "hi" }))
  })
})

describe("approvals on /v1/responses as mcp_approval_request items (issue 21 part 3)", () => {
  // The first turn: the model calls `dangerous`, which the key marks approval-required.
  const ask = async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_d", name: "dangerous", arguments: { text: "rm" } }]
    })
    const input: Array<InputItem> = [{ role: "user", content: "Do it" }]
    const first = await client.responses.create({ model: "test/m1", input, tools: [parley] })
    return { first, history: [...input, ...(first.output as Array<InputItem>)] }
  }
  const requestOf = (output: Array<Item>) =>
    output.find((item): item is OpenAI.Responses.ResponseOutputItem.McpApprovalRequest =>
      item.type === "mcp_approval_request"
    )!

  it("asks for approval, then runs the approved call and answers", async () => {
    const before = ranDangerous.length
    const { first, history } = await ask()
    expect(first.status).toBe("completed")
    const request = requestOf(first.output)
    expect(request).toMatchObject({ server_label: "parley", name: "dangerous", arguments: `{"text":"rm"}` })
    expect(request.id).toMatch(/^mcpr_apr_/)
    const validate = contractSchema("Response")
    expect(validate(JSON.parse(JSON.stringify({ ...first, output_text: undefined }))), JSON.stringify(validate.errors))
      .toBe(true)
    expect(first.output.some((item) => item.type === "mcp_call")).toBe(false)
    expect(ranDangerous.length).toBe(before)

    gateway.upstream.enqueue({ type: "text", text: "It ran." })
    const second = await client.responses.create({
      model: "test/m1",
      tools: [parley],
      input: [...history, { type: "mcp_approval_response", approval_request_id: request.id, approve: true }]
    })
    expect(ranDangerous.slice(before)).toEqual([{ text: "rm" }])
    expect(second.output.map((item) => item.type)).toEqual(["mcp_list_tools", "mcp_call", "message"])
    expect(second.output[1]).toMatchObject({
      type: "mcp_call",
      id: "call_d",
      name: "dangerous",
      output: "ran",
      status: "completed",
      approval_request_id: request.id
    })
    expect(second.output_text).toBe("It ran.")
    const sent = gateway.upstream.requests.at(-1)!.body.messages
    expect(sent).toContainEqual(expect.objectContaining({ role: "tool", tool_call_id: "call_d", content: "ran" }))

    // An approval runs its call once.
    const again = await post({
      tools: [parley],
      input: [...history, { type: "mcp_approval_response", approval_request_id: request.id, approve: true }]
    })
    expect(again.status).toBe(400)
    expect(ranDangerous.length).toBe(before + 1)
  })

  it("takes the approval in the next request by previous_response_id (issue 23 part 4)", async () => {
    const before = ranDangerous.length
    const { first } = await ask()
    const request = requestOf(first.output)
    gateway.upstream.enqueue({ type: "text", text: "It ran." })
    const second = await client.responses.create({
      model: "test/m1",
      tools: [parley],
      previous_response_id: first.id,
      input: [{ type: "mcp_approval_response", approval_request_id: request.id, approve: true }]
    })
    expect(ranDangerous.slice(before)).toEqual([{ text: "rm" }])
    expect(second.output[1]).toMatchObject({ type: "mcp_call", id: "call_d", approval_request_id: request.id })
    expect(second.output_text).toBe("It ran.")
    const sent = gateway.upstream.requests.at(-1)!.body.messages
    expect(sent).toContainEqual(expect.objectContaining({ role: "user", content: "Do it" }))
    expect(sent).toContainEqual(expect.objectContaining({ role: "tool", tool_call_id: "call_d", content: "ran" }))
    // Another key cannot answer it through the first key's stored response.
    const stolen = await post({
      tools: [parley],
      previous_response_id: first.id,
      input: [{ type: "mcp_approval_response", approval_request_id: request.id, approve: true }]
    }, otherSecret)
    expect(stolen.status).toBe(400)
    expect(stolen.body.error.code).toBe("previous_response_not_found")
  })

  it("streams the approval request as an item added and done, and the response completed", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_s", name: "dangerous", arguments: { text: "s" } }]
    })
    const stream = client.responses.stream({ model: "test/m1", input: "Do it", tools: [parley] })
    const added: Array<string> = []
    for await (const event of stream) if (event.type === "response.output_item.added") added.push(event.item.type)
    expect(added).toEqual(["mcp_list_tools", "mcp_approval_request"])
    const response = await stream.finalResponse()
    expect(response.status).toBe("completed")
    expect(requestOf(response.output)).toMatchObject({ name: "dangerous", arguments: `{"text":"s"}` })
  })

  it("tells the model a denied call was denied, with the reason, and runs nothing", async () => {
    const before = ranDangerous.length
    const { first, history } = await ask()
    gateway.upstream.enqueue({ type: "text", text: "Understood." })
    const second = await client.responses.create({
      model: "test/m1",
      tools: [parley],
      input: [...history, {
        type: "mcp_approval_response",
        approval_request_id: requestOf(first.output).id,
        approve: false,
        reason: "not today"
      }]
    })
    expect(second.output_text).toBe("Understood.")
    expect(second.output.some((item) => item.type === "mcp_call")).toBe(false)
    expect(ranDangerous.length).toBe(before)
    const told = gateway.upstream.requests.at(-1)!.body.messages.find((m: any) => m.tool_call_id === "call_d")
    expect(told.content).toContain("not today")
  })

  it("answers 400 and runs nothing for an altered id, one of another key, or an answer to no request", async () => {
    const before = ranDangerous.length
    const calls = gateway.upstream.requests.length
    const { first, history } = await ask()
    const request = requestOf(first.output)
    const answer = (id: string) => ({ type: "mcp_approval_response", approval_request_id: id, approve: true })
    // The signature altered, in the request item and its answer alike.
    const altered = request.id.replace(/_(.)(.{42})\./, (_, c, rest) => `_${c === "A" ? "B" : "A"}${rest}.`)
    expect(altered).not.toBe(request.id)
    const tampered = history.map((item) => item === (request as unknown) ? { ...request, id: altered } : item)
    // The call id the item id carries, changed.
    const moved = `${request.id.slice(0, request.id.lastIndexOf("."))}.${Buffer.from("call_x").toString("base64url")}`
    const movedHistory = history.map((item) => item === (request as unknown) ? { ...request, id: moved } : item)
    for (
      const [input, key] of [
        [[...tampered, answer(altered)], secret],
        [[...movedHistory, answer(moved)], secret],
        [[...history, answer(request.id)], otherSecret],
        [[...history, answer("mcpr_forged")], secret]
      ] as const
    ) {
      const { body, status } = await post({ tools: [parley], input }, key)
      expect(status).toBe(400)
      expect(body.error.type).toBe("invalid_request_error")
    }
    expect(ranDangerous.length).toBe(before)
    // The first turn's model call only: none of the refused requests reached the model.
    expect(gateway.upstream.requests.length).toBe(calls + 1)
  })

  it("drops a request a later user message superseded, and refuses one left unanswered in the last turn", async () => {
    const before = ranDangerous.length
    const { history } = await ask()
    gateway.upstream.enqueue({ type: "text", text: "Something else, then." })
    const moved = await client.responses.create({
      model: "test/m1",
      tools: [parley],
      input: [...history, { role: "user", content: "Never mind" }]
    })
    expect(moved.output_text).toBe("Something else, then.")
    const unanswered = await post({ tools: [parley], input: history })
    expect(unanswered.status).toBe(400)
    expect(unanswered.body.error.message).toContain(`"dangerous"`)
    expect(ranDangerous.length).toBe(before)
  })

  it("asks for approval of a tool require_approval names, beyond the key's rules", async () => {
    gateway.upstream.enqueue({ type: "tool-calls", calls: [{ id: "call_e", name: "echo", arguments: { text: "x" } }] })
    const response = await client.responses.create({
      model: "test/m1",
      input: "Echo",
      tools: [{ ...parley, require_approval: { always: { tool_names: ["echo"] } } }]
    })
    expect(requestOf(response.output)).toMatchObject({ name: "echo", server_label: "parley" })
    expect(response.output.some((item) => item.type === "mcp_call")).toBe(false)
  })

  it("keeps the key's approval when require_approval says never", async () => {
    const { first } = await (async () => {
      gateway.upstream.enqueue({
        type: "tool-calls",
        calls: [{ id: "call_n", name: "dangerous", arguments: { text: "n" } }]
      })
      return {
        first: await client.responses.create({
          model: "test/m1",
          input: "Do it",
          tools: [{ ...parley, require_approval: "never" }]
        })
      }
    })()
    expect(requestOf(first.output)).toMatchObject({ name: "dangerous" })
  })
})
