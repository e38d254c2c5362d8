import Anthropic from "@anthropic-ai/sdk"
import type { BetaRequestMCPServerURLDefinition } from "@anthropic-ai/sdk/resources/beta/messages"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contractSchema } from "../../support/contractSchemas.ts"
import type { TestGateway } from "../../support/gateway.ts"
import { postJson } from "../../support/http.ts"
import { type FakeServer, startHostedMcpGateway } from "../../support/mcp/hostedGateway.ts"
import { makeTestTool } from "../../support/tools.ts"

let gateway: TestGateway
let dict: FakeServer
// An MCP server no operator configured: a body pointing at it must never reach it.
let stray: FakeServer
let close: () => Promise<void>
let secret: string
let client: Anthropic
const ranSecret: Array<unknown> = []

beforeAll(async () => {
  ;({ close, dict, gateway, stray } = await startHostedMcpGateway([
    makeTestTool({ name: "echo" }),
    makeTestTool({ name: "dangerous" }),
    makeTestTool({ name: "secret", execute: (input) => Effect.sync(() => ranSecret.push(input)) }),
    makeTestTool({ name: "needs_token", requiredContext: [{ field: "token" }] }),
    makeTestTool({ name: "shell", requiresSandbox: true })
  ]))
  ;({ secret } = await gateway.createKey({
    tools: ["echo", "dangerous", "needs_token", "shell", "dict__*"],
    approve: ["dangerous"]
  }))
  client = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 })
}, 30_000)
afterAll(() => close?.())

const BETA = "mcp-client-2025-04-04"
// Anthropic's type requires a url; parley's own tools take none.
const server = (fields: Partial<BetaRequestMCPServerURLDefinition> & { name: string }) =>
  ({ type: "url", ...fields }) as BetaRequestMCPServerURLDefinition
const ask = (servers: Array<BetaRequestMCPServerURLDefinition>, on = client) =>
  on.beta.messages.create({
    model: "test/m1",
    max_tokens: 100,
    messages: [{ role: "user", content: "Go" }],
    mcp_servers: servers,
    betas: [BETA]
  })
const offered = () => gateway.upstream.requests.at(-1)!.body.tools?.map((tool: any) => tool.function.name) ?? []
const callThen = (name: string, args: unknown, text = "Done.") => {
  gateway.upstream.enqueue({ type: "tool-calls", calls: [{ id: `call_${name}`, name, arguments: args }] })
  gateway.upstream.enqueue({ type: "text", text })
}
const issue = async (body: Record<string, unknown>) => {
  const response = await postJson(`${gateway.url}/v1/messages?beta=true`, {
    model: "test/m1",
    max_tokens: 50,
    messages: [{ role: "user", content: "Hi" }],
    ...body
  }, { "x-api-key": secret, "anthropic-beta": BETA })
  return { status: response.status, body: await response.json() }
}

const echoed = [
  { type: "mcp_tool_use", id: "call_echo", name: "echo", server_name: "parley", input: { text: "hi" } },
  {
    type: "mcp_tool_result",
    tool_use_id: "call_echo",
    is_error: false,
    content: [{ type: "text", text: JSON.stringify({ echoed: "hi", contextKeys: [] }) }]
  },
  { type: "text", text: "Done." }
]

describe("mcp_servers on /v1/messages: parley's tools as hosted MCP tools (issue 21 part 3)", () => {
  it("runs parley's own tool and answers mcp_tool_use, mcp_tool_result, then the text", async () => {
    callThen("echo", { text: "hi" })
    const message = await ask([server({ name: "parley" })])
    expect(message.content).toEqual(echoed)
    expect(message.stop_reason).toBe("end_turn")
    const validate = contractSchema("AnthropicMessage")
    expect(validate(JSON.parse(JSON.stringify(message))), JSON.stringify(validate.errors)).toBe(true)
    // The key's tools, and only those: `secret` is off its allow-list; this request could not run
    // `needs_token` (no context) nor `shell` (no sandbox).
    expect(offered().sort()).toEqual(["dangerous", "echo"])
  })

  it("streams the same blocks, each whole between content_block_start and content_block_stop", async () => {
    callThen("echo", { text: "hi" })
    const stream = client.beta.messages.stream({
      model: "test/m1",
      max_tokens: 100,
      messages: [{ role: "user", content: "Go" }],
      mcp_servers: [server({ name: "parley" })],
      betas: [BETA]
    })
    const events: Array<string> = []
    for await (const event of stream) {
      if (event.type === "content_block_start") events.push(`${event.type}:${event.content_block.type}`)
      if (event.type === "content_block_stop") events.push(`${event.type}:${event.index}`)
    }
    expect(events.slice(0, 4)).toEqual([
      "content_block_start:mcp_tool_use",
      "content_block_stop:0",
      "content_block_start:mcp_tool_result",
      "content_block_stop:1"
    ])
    const message = await stream.finalMessage()
    expect(message.content).toEqual(echoed)
  })

  it("runs a configured MCP server's tool by the server's id and the tool's own name", async () => {
    callThen("dict__lookup", { word: "parley" }, "Found it.")
    const message = await ask([server({ name: "dict", url: dict.url })])
    expect(message.content).toEqual([
      { type: "mcp_tool_use", id: "call_dict__lookup", name: "lookup", server_name: "dict", input: { word: "parley" } },
      {
        type: "mcp_tool_result",
        tool_use_id: "call_dict__lookup",
        is_error: false,
        content: [{ type: "text", text: `found ${JSON.stringify({ word: "parley" })}` }]
      },
      { type: "text", text: "Found it." }
    ])
    expect(dict.calls.at(-1)).toEqual({ word: "parley" })
    expect(offered()).toEqual(["dict__lookup"])
  })

  it("narrows to allowed_tools, and a disabled server offers nothing", async () => {
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    await ask([
      server({ name: "parley", tool_configuration: { allowed_tools: ["echo"] } }),
      server({ name: "dict", tool_configuration: { enabled: false } })
    ])
    expect(offered()).toEqual(["echo"])
  })

  it("offers a tool needing context once the extra field gives it; named outright without, a 400", async () => {
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    const body = { mcp_servers: [{ type: "url", name: "parley" }], context: { token: "t" } }
    expect((await issue(body)).status).toBe(200)
    expect(offered().sort()).toEqual(["dangerous", "echo", "needs_token"])
    const named = await issue({
      mcp_servers: [{ type: "url", name: "parley", tool_configuration: { allowed_tools: ["needs_token"] } }]
    })
    expect(named.status).toBe(400)
    expect(named.body.error.message).toContain("token")
  })

  it("refuses a call of a tool off the key's allow-list as a tool error, and never runs it", async () => {
    callThen("secret", { text: "x" }, "Could not.")
    const message = await ask([server({ name: "parley" })])
    expect(message.content[0]).toMatchObject({ type: "mcp_tool_use", name: "secret", server_name: "parley" })
    expect(message.content[1]).toMatchObject({ type: "mcp_tool_result", tool_use_id: "call_secret", is_error: true })
    expect(ranSecret).toEqual([])
  })

  it("answers 403 when allowed_tools names a tool off the key's allow-list", async () => {
    const error = await ask([server({ name: "parley", tool_configuration: { allowed_tools: ["secret"] } })])
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError)
  })

  it("refuses a tool that needs approval as a tool error naming the rule", async () => {
    callThen("dangerous", { text: "x" }, "I may not.")
    const message = await ask([server({ name: "parley" })])
    const result = message.content[1] as Anthropic.Beta.BetaMCPToolResultBlock
    expect(result).toMatchObject({ type: "mcp_tool_result", is_error: true })
    expect(JSON.stringify(result.content)).toContain("approvalRequired")
    expect(message.content[2]).toMatchObject({ type: "text", text: "I may not." })
  })

  it("answers 400 naming the labels the key may use for an unknown server", async () => {
    const { body, status } = await issue({ mcp_servers: [{ type: "url", name: "nowhere" }] })
    expect(status).toBe(400)
    expect(body.error.type).toBe("invalid_request_error")
    expect(body.error.message).toContain(`"mcp_servers[0]"`)
    expect(body.error.message).toContain("known: parley, dict")
    // A key none of whose tools are dict's is not told it exists.
    const { secret: narrow } = await gateway.createKey({ tools: ["echo"] })
    const error = await ask([server({ name: "dict" })], new Anthropic({ baseURL: gateway.url, apiKey: narrow }))
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.BadRequestError)
    expect(error.message).toContain("known: parley")
    expect(error.message).not.toContain("dict,")
  })

  it("answers 400 for a url that is not the configured server's own, and connects to nothing", async () => {
    const before = dict.headers.length
    for (
      const servers of [
        [{ type: "url", name: "dict", url: stray.url }],
        [{ type: "url", name: "parley", url: stray.url }],
        [{ type: "url", name: stray.url, url: stray.url }]
      ]
    ) {
      const { body, status } = await issue({ mcp_servers: servers })
      expect(status).toBe(400)
      expect(body.error.type).toBe("invalid_request_error")
    }
    expect((await issue({ mcp_servers: [{ type: "url", name: "dict", url: stray.url }] })).body.error.message)
      .toContain("parley connects only to servers its operator configured")
    expect(stray.headers).toEqual([])
    expect(dict.headers.length).toBe(before)
  })

  it("refuses an authorization_token without repeating it", async () => {
    const token = "tok-secret-8c1f"
    const { body, status } = await issue({ mcp_servers: [{ type: "url", name: "parley", authorization_token: token }] })
    expect(status).toBe(400)
    expect(body.error.message).toContain(`"mcp_servers[0].authorization_token"`)
    expect(JSON.stringify(body)).not.toContain(token)
  })

  it("takes back its earlier answer's mcp_tool_use and mcp_tool_result blocks as the call and its result", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Again?" })
    const message = await client.beta.messages.create({
      model: "test/m1",
      max_tokens: 100,
      mcp_servers: [server({ name: "dict" })],
      betas: [BETA],
      messages: [
        { role: "user", content: "Look up parley" },
        {
          role: "assistant",
          content: [
            { type: "mcp_tool_use", id: "call_d1", name: "lookup", server_name: "dict", input: { word: "parley" } },
            {
              type: "mcp_tool_result",
              tool_use_id: "call_d1",
              is_error: false,
              content: [{ type: "text", text: "a talk" }]
            },
            { type: "text", text: "It means a talk." }
          ]
        },
        { role: "user", content: "Thanks" }
      ]
    })
    expect(message.content).toEqual([{ type: "text", text: "Again?" }])
    const sent = gateway.upstream.requests.at(-1)!.body.messages
    expect(sent).toContainEqual(expect.objectContaining({
      role: "assistant",
      tool_calls: [
        expect.objectContaining({ id: "call_d1", function: expect.objectContaining({ name: "dict__lookup" }) })
      ]
    }))
    expect(sent).toContainEqual(expect.objectContaining({ role: "tool", tool_call_id: "call_d1", content: "a talk" }))
  })

  it("answers 400 naming the place of an mcp_tool_use sent back without its result", async () => {
    const { body, status } = await issue({
      messages: [{ role: "user", content: "Hi" }, {
        role: "assistant",
        content: [{ type: "mcp_tool_use", id: "u1", name: "echo", server_name: "parley", input: {} }]
      }, { role: "user", content: "And?" }]
    })
    expect(status).toBe(400)
    expect(body.error.message).toContain(`"messages[1]" has an mcp_tool_use (id "u1")`)
  })
})
