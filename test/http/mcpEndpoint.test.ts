import { Effect, Schema } from "effect"
import type { McpClient } from "effect/ai"
import type { LookupFunction } from "node:net"
import { Agent } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Accounts } from "../../src/auth/Accounts.ts"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import { makeWorkplaceMessage } from "../../src/tools/workplace/workplaceMessage.ts"
import { type SlackFake, startSlackFake } from "../support/fakes/slack.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { httpServerEntry, type RunningServer, startEverythingHttp } from "../support/mcp/everything.ts"
import { textOf, withParleyClient } from "../support/mcp/parleyClient.ts"
import { makeTestTool } from "../support/tools.ts"

let everything: RunningServer
let gateway: TestGateway
let slack: SlackFake

// Every name resolves to this machine, as DNS rebinding makes an attacker's name resolve for a browser.
const toLoopback: LookupFunction = (_name, options, callback) =>
  options.all ? callback(null, [{ address: "127.0.0.1", family: 4 }]) : callback(null, "127.0.0.1", 4)
const rebinding = new Agent({ connect: { lookup: toLoopback } })
const reboundFetch: typeof fetch = (input, init) => fetch(input, { ...init, dispatcher: rebinding } as RequestInit)

beforeAll(async () => {
  everything = await startEverythingHttp()
  slack = await startSlackFake("T0001/B0001/slack-secret-5a8e")
  gateway = await startGateway({
    tools: [
      makeTestTool({ name: "echo" }),
      makeTestTool({ name: "needs_token", requiredContext: [{ field: "token" }] }),
      makeTestTool({
        name: "may_use_locale",
        optionalContext: [{ field: "locale", schema: Schema.String.annotate({ description: "The reply's language." }) }]
      }),
      makeWorkplaceMessage({ timeoutMs: 2_000 }),
      makeTestTool({ name: "shell", requiresSandbox: true }),
      makeTestTool({ name: "pages", optionalSandbox: "Pages persist across requests naming the same sandbox." })
    ],
    config: {
      mcpServers: [httpServerEntry("everything", everything.url)]
    }
  })
}, 30_000)
afterAll(async () => {
  await gateway?.close()
  await everything?.close()
  await slack?.close()
  await rebinding.close()
})

const withClient = <A>(secret: string, use: (client: McpClient.McpClient) => Effect.Effect<A, unknown>) =>
  withParleyClient(gateway.url, secret, use)

describe("parley as an MCP server at /mcp (docs/DESIGN.md §9)", () => {
  it("lists exactly the key's tools, built-in and MCP, and runs them", async () => {
    const { secret } = await gateway.createKey({ tools: ["echo", "needs_token", "everything__echo"] })
    await withClient(secret, (client) =>
      Effect.gen(function*() {
        const tools = yield* client.listTools()
        expect(tools.map((tool) => tool.name).sort()).toEqual(["echo", "everything__echo", "needs_token"])
        const needsToken = tools.find((tool) => tool.name === "needs_token")!
        expect(Object.keys(needsToken.inputSchema.properties ?? {})).toContain("_context")

        const echoed = yield* client.callTool({
          tool: tools.find((t) => t.name === "echo")!,
          arguments: { text: "hi" }
        })
        expect(echoed.isError ?? false).toBe(false)
        expect(echoed.structuredContent).toEqual({ echoed: "hi", contextKeys: [] })

        const remote = tools.find((tool) => tool.name === "everything__echo")!
        const relayed = yield* client.callTool({ tool: remote, arguments: { message: "through parley" } })
        expect(textOf(relayed)).toBe("Echo: through parley")

        const missing = yield* client.callTool({ tool: needsToken, arguments: { text: "x" } })
        expect(missing.isError).toBe(true)
        expect(textOf(missing)).toBe("Missing required context: token; send it as arguments._context.token")

        const given = yield* client.callTool({ tool: needsToken, arguments: { text: "x", _context: { token: "t" } } })
        expect(given.structuredContent).toEqual({ echoed: "x", contextKeys: ["token"] })
      }))
  })

  it("lists _context as required, with its fields, for a tool that cannot run without them", async () => {
    const { secret } = await gateway.createKey({
      tools: ["echo", "needs_token", "may_use_locale", "workplace_message"]
    })
    const tools = await withClient(secret, (client) => client.listTools())
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema
    const workplace = schemaOf("workplace_message")
    expect(workplace.required).toEqual(["text", "_context"])
    const context = workplace.properties?._context as {
      type: string
      description: string
      required: Array<string>
      properties: Record<string, { type?: string; enum?: Array<string>; description: string }>
    }
    expect(context.type).toBe("object")
    expect(context.description).toBe(
      "The tool's context (what a /chat request sends as `context`); " +
        "required: the tool cannot run without platform, webhookUrl"
    )
    expect(context.required).toEqual(["platform", "webhookUrl"])
    expect(Object.keys(context.properties)).toEqual(["platform", "webhookUrl", "secret"])
    expect(context.properties.platform!.enum).toEqual(["wecom", "feishu", "lark", "slack"])
    // The secrets' schemas are typed by what is sent (a string) and say what they are for, never a value.
    expect(context.properties.webhookUrl).toEqual({
      type: "string",
      description: "The group's incoming-webhook URL. A secret: it is never logged or shown."
    })
    expect(context.properties.secret!.type).toBe("string")
    expect(context.properties.secret!.description).toContain("Signing secret of a Feishu/Lark bot")

    // Presence only: any value, described by its name.
    const token = schemaOf("needs_token")
    expect(token.required).toEqual(["text", "_context"])
    expect(token.properties?._context).toMatchObject({
      required: ["token"],
      properties: { token: { description: "Context field token of needs_token." } }
    })
    // Only optional context: `_context` listed, neither it nor its field required.
    const locale = schemaOf("may_use_locale")
    expect(locale.required).toEqual(["text"])
    expect(locale.properties?._context).toMatchObject({
      description: "The tool's context (what a /chat request sends as `context`); optional: the tool runs without it",
      properties: { locale: { type: "string", description: "The reply's language." } }
    })
    expect(locale.properties?._context).not.toHaveProperty("required")
    expect(schemaOf("echo").properties).not.toHaveProperty("_context")
  })

  it("tells a call without the context what to send and where, and runs one with it", async () => {
    const { secret } = await gateway.createKey({ tools: ["workplace_message"] })
    await withClient(secret, (client) =>
      Effect.gen(function*() {
        const tool = (yield* client.listTools())[0]!
        const missing = yield* client.callTool({ tool, arguments: { text: "Candidate booked" } })
        expect(missing.isError).toBe(true)
        expect(textOf(missing)).toBe(
          "Missing required context: platform, webhookUrl; " +
            "send them as arguments._context.platform, arguments._context.webhookUrl"
        )
        const partial = yield* client.callTool({
          tool,
          arguments: { text: "Candidate booked", _context: { platform: "slack" } }
        })
        expect(textOf(partial)).toBe("Missing required context: webhookUrl; send it as arguments._context.webhookUrl")
        const malformed = yield* client.callTool({
          tool,
          arguments: { text: "Candidate booked", _context: { platform: "slack", webhookUrl: "hook-secret-d41c" } }
        })
        expect(textOf(malformed)).toMatch(/^Invalid context arguments\._context\.webhookUrl: .*http\(s\) URL/)
        expect(textOf(malformed)).not.toContain("hook-secret-d41c")
        expect(slack.received).toHaveLength(0)

        const sent = yield* client.callTool({
          tool,
          arguments: { text: "Candidate booked", _context: { platform: "slack", webhookUrl: slack.webhookUrl } }
        })
        expect(sent.isError ?? false).toBe(false)
        expect(sent.structuredContent).toEqual({ sent: true, platform: "slack", format: "text" })
        expect(slack.received.map((request) => request.json)).toEqual([{ text: "Candidate booked" }])
      }))
  })

  it("tells a call without a sandbox where to send its id", async () => {
    const { secret } = await gateway.createKey({ tools: ["shell"] })
    await withClient(secret, (client) =>
      Effect.gen(function*() {
        const shell = (yield* client.listTools())[0]!
        const missing = yield* client.callTool({ tool: shell, arguments: { text: "ls" } })
        expect(missing.isError).toBe(true)
        expect(textOf(missing)).toBe(
          "Missing a sandbox: send its id as arguments._sandboxId (POST /api/v1/sandboxes makes one)"
        )
      }))
  })

  it("lists _sandboxId as required for a tool that needs a sandbox, optional and saying what for where it can use one", async () => {
    const { secret } = await gateway.createKey({ tools: ["echo", "shell", "pages"] })
    const tools = await withClient(secret, (client) => client.listTools())
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema
    const shell = schemaOf("shell")
    expect(shell.properties?._sandboxId).toEqual({
      type: "string",
      description: "The sandbox to run in (POST /api/v1/sandboxes)"
    })
    expect(shell.required).toEqual(["text", "_sandboxId"])
    const pages = schemaOf("pages")
    expect(pages.properties?._sandboxId).toEqual({
      type: "string",
      description: "Optional: a sandbox id. Pages persist across requests naming the same sandbox. " +
        "(Each /mcp call is a request of its own.)"
    })
    expect(pages.required).toEqual(["text"])
    expect(schemaOf("echo").properties).not.toHaveProperty("_sandboxId")
  })

  it("counts tool calls against requestsPerMinute (docs/DESIGN.md §11)", async () => {
    const { secret } = await gateway.createKey({ tools: ["echo"], limits: { requestsPerMinute: 2 } })
    await withClient(secret, (client) =>
      Effect.gen(function*() {
        const echo = (yield* client.listTools())[0]!
        for (let i = 0; i < 2; i++) {
          expect((yield* client.callTool({ tool: echo, arguments: { text: "hi" } })).isError ?? false).toBe(false)
        }
        const refused = yield* client.callTool({ tool: echo, arguments: { text: "hi" } })
        expect(refused.isError).toBe(true)
        expect(textOf(refused)).toMatch(/^Over the key's requestsPerMinute limit; retry after \d+ s$/)
      }))
  })

  it("never lists or runs a tool off the key's allow-list", async () => {
    const wide = await gateway.createKey({ tools: ["*"] })
    const narrow = await gateway.createKey({ tools: ["everything__get-sum"] })
    const images = await withClient(
      wide.secret,
      (client) =>
        Effect.map(client.listTools(), (tools) => tools.find((tool) => tool.name === "everything__get-tiny-image")!)
    )
    await withClient(narrow.secret, (client) =>
      Effect.gen(function*() {
        expect((yield* client.listTools()).map((tool) => tool.name)).toEqual(["everything__get-sum"])
        const refused = yield* Effect.flip(client.callTool({ tool: images, arguments: {} }))
        expect(String(refused)).toContain("Tool not available with your API key: everything__get-tiny-image")
      }))
    // The wide key gets the image as MCP image content.
    await withClient(wide.secret, (client) =>
      Effect.gen(function*() {
        const result = yield* client.callTool({ tool: images, arguments: {} })
        expect(result.content.some((part) => (part as { type: string }).type === "image")).toBe(true)
      }))
  })

  it("bounds the key's tools by its account's allow-list (key ∩ account, docs/DESIGN.md §6)", async () => {
    const account = await Effect.runPromise(Effect.orDie(
      gateway.service(Accounts).create({
        name: "narrow",
        email: `mcp-bound-${Date.now()}-${Math.random()}@example.com`,
        allowedModels: ["*"],
        allowedTools: ["echo", "everything__echo"]
      })
    ))
    const { secret } = await Effect.runPromise(
      gateway.service(ApiKeys).create({
        name: "wide",
        allowedModels: ["*"],
        allowedTools: ["echo", "needs_token", "everything__*"],
        accountId: account.id
      })
    )
    const wide = await gateway.createKey({ tools: ["*"] })
    const everyTool = await withClient(wide.secret, (client) => client.listTools())
    const named = (name: string) => everyTool.find((tool) => tool.name === name)!
    await withClient(secret, (client) =>
      Effect.gen(function*() {
        expect((yield* client.listTools()).map((tool) => tool.name).sort()).toEqual(["echo", "everything__echo"])
        for (const name of ["needs_token", "everything__get-sum"]) {
          const refused = yield* Effect.flip(client.callTool({ tool: named(name), arguments: { text: "x" } }))
          expect(String(refused)).toContain(`Tool not available with your API key: ${name}`)
        }
        expect(textOf(yield* client.callTool({ tool: named("everything__echo"), arguments: { message: "in" } })))
          .toBe("Echo: in")
      }))
  })

  it("answers the spec's 401 without a valid key", async () => {
    const request = { jsonrpc: "2.0", id: 1, method: "tools/list" }
    const missing = await fetch(`${gateway.url}/mcp`, { method: "POST", body: JSON.stringify(request) })
    expect(missing.status).toBe(401)
    expect(missing.headers.get("www-authenticate")).toBe("Bearer")
    expect((await missing.json()).error).toBe("Unauthorized")
    const wrong = await fetch(`${gateway.url}/mcp`, {
      method: "POST",
      headers: { authorization: "Bearer pk_nope" },
      body: JSON.stringify(request)
    })
    expect(wrong.status).toBe(401)
  })

  it("serves a browser page of its own loopback origin and refuses others, a page reached by DNS rebinding too", async () => {
    const { secret } = await gateway.createKey({ tools: ["echo"] })
    const { port } = new URL(gateway.url)
    // A page's origin is the name its browser sent the request to: the client is sent to `url` (which reaches parley).
    const listAs = (url: string) =>
      withParleyClient(url, secret, (client) => client.listTools(), { headers: { origin: url }, fetch: reboundFetch })
    for (const own of [gateway.url, `http://localhost:${port}`]) {
      expect((await listAs(own)).map((tool) => tool.name)).toEqual(["echo"])
    }
    // DNS rebinding: the attacker's name resolves to parley, so the page's origin matches the Host it sends.
    const rebound = `http://rebound.example:${port}`
    await expect(listAs(rebound)).rejects.toThrow("MCP HTTP status 403")
    const refused = await reboundFetch(`${rebound}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${secret}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        origin: rebound
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    })
    expect(refused.status).toBe(403)
    const body = await refused.json()
    expect(body.error).toBe("Forbidden")
    expect(body.details).toEqual({ origin: rebound })
    expect(body.message).toContain("PARLEY_CORS_ORIGINS")
    // Another origin on this machine (another port) is not parley's own either.
    const other = await fetch(`${gateway.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, origin: "http://localhost:1", "content-type": "application/json" },
      body: "{}"
    })
    expect(other.status).toBe(403)
  })
})
