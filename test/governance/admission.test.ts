import { Effect } from "effect"
import type { McpSchema } from "effect/ai"
import { rmSync } from "node:fs"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { ApprovalRequired } from "../../src/governance/approvalRequired.ts"
import { createSandbox } from "../sandbox/chat.ts"
import { dataDirectory, testSandboxes } from "../sandbox/support.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, limitRefusals, postJson } from "../support/http.ts"
import { textOf, withParleyClient } from "../support/mcp/parleyClient.ts"
import { makeTestTool } from "../support/tools.ts"

/**
 * docs/DESIGN.md §11, "Governance in one layer": a chat run and an /mcp tool
 * call are admitted by the same rules (governance/Admission.ts), and each
 * rule refuses with the same meaning on both paths: /chat's error body, and
 * on /mcp that body in the refusal's `_meta` (a protocol error's `data` for
 * the allow-list, which MCP answers as an unknown tool).
 */
let gateway: TestGateway
let base: string
let runs: Array<unknown> = []

const dangerous = makeTestTool({
  name: "dangerous",
  execute: (input: { text: string }) => Effect.sync(() => (runs.push(input), { done: input.text }))
})

beforeAll(async () => {
  const folders = dataDirectory()
  base = folders.base
  gateway = await startGateway({
    sandboxes: testSandboxes(folders.sandboxes),
    databaseUrl: `sqlite:${folders.data}/parley.db`,
    tools: [makeTestTool({ name: "echo" }), dangerous],
    // A run reserves its prompt plus 100 tokens (docs/DESIGN.md §11).
    maxOutputTokens: 100,
    observability: { metricsPublic: true }
  })
}, 60_000)
afterAll(async () => {
  await gateway?.close()
  rmSync(base, { recursive: true, force: true })
})
beforeEach(() => {
  runs = []
})

/** What a refusal means: its body without what differs per request (the correlation id). */
const meaning = (body: unknown) => {
  const { correlationId: _, ...rest } = body as Record<string, unknown>
  return rest
}

/** POST /api/v1/chat: the status and the error body's meaning. */
const chat = async (secret: string, overrides: Record<string, unknown>) => {
  const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody(overrides), bearer(secret))
  return { status: response.status, body: meaning(await response.json()) }
}

interface McpAnswer {
  readonly isError?: boolean
  readonly text?: string
  /** `_meta` of a tool result, `data` of a protocol error (with its `code`). */
  readonly meta?: Record<string, unknown>
  readonly code?: number
}

/** One tools/call through /mcp with Effect's MCP client, as `secret`; the tool need not be on the key's list. */
const mcp = (secret: string, name: string, args: Record<string, unknown>): Promise<McpAnswer> =>
  withParleyClient(gateway.url, secret, (client) =>
    Effect.gen(function*() {
      const tool = { name, inputSchema: { type: "object" } } as McpSchema.Tool
      const called = yield* Effect.result(client.callTool({ tool, arguments: args }))
      if (called._tag === "Success") {
        const result = called.success
        return { isError: result.isError ?? false, text: textOf(result), meta: result._meta ?? {} }
      }
      const reason = called.failure.reason as { readonly code?: number; readonly data?: unknown }
      return { code: reason.code ?? 0, meta: meaning(reason.data) }
    }))

/** A limit's refusal without the seconds to wait, counted at each refusal: the same window, the same reset. */
const waitless = (body: Record<string, unknown>) => ({
  ...body,
  message: String(body.message).replace(/\d+ s$/, "N s")
})

/** The /chat body a refusal on /mcp carries. */
const carried = (answer: McpAnswer) => meaning(answer.meta?.["parley/error"])

describe("one admission for chat runs and /mcp tool calls (docs/DESIGN.md §11)", () => {
  it("the allow-list: off it is ToolNotAllowed (403) whether or not the tool exists; on it but absent, UnknownTool", async () => {
    const { secret } = await gateway.createKey({ tools: ["echo", "ghost"] })
    for (const name of ["dangerous", "nowhere"]) {
      const refused = await chat(secret, { allowedTools: [name] })
      expect(refused).toEqual({
        status: 403,
        body: {
          error: "Forbidden",
          message: `Tool not available with your API key: ${name}`,
          statusCode: 403,
          details: { tool: name }
        }
      })
      // MCP answers a tool it does not offer with Invalid params; its data is /chat's body.
      expect(await mcp(secret, name, { text: "x" })).toEqual({ code: -32602, meta: refused.body })
    }
    const unknown = await chat(secret, { allowedTools: ["ghost"] })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ error: "BadRequest", details: { tools: ["ghost"] } })
    expect(await mcp(secret, "ghost", {})).toEqual({ code: -32602, meta: unknown.body })
    expect(runs).toEqual([])
  })

  it("the approval list: a waiting tool never runs; asked on /api/v1/chat, refused as ApprovalRequired where none can ask", async () => {
    const { id, secret } = await gateway.createKey({ tools: ["dangerous"], approve: ["dangerous"] })
    const call = { type: "tool-calls", calls: [{ id: "call_d", name: "dangerous", arguments: { text: "rm" } }] }

    // The ui door asks a person: the run ends waiting for the answer.
    gateway.upstream.enqueue(call as never)
    const asked = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["dangerous"] }),
      bearer(secret)
    )
    expect((await asked.json()).data).toMatchObject({ finished: false, finishReason: "approval-required" })

    // A door that cannot ask tells the model the rule, and the run goes on.
    gateway.upstream.enqueue(call as never, { type: "text", text: "I may not." })
    const completion = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: "test/m1",
      messages: [{ role: "user", content: "Do it" }],
      allowedTools: ["dangerous"]
    }, bearer(secret))
    expect(completion.status).toBe(200)
    const told = gateway.upstream.requests.at(-1)!.body.messages.at(-1)
    expect(told).toMatchObject({
      role: "tool",
      tool_call_id: "call_d",
      content: new ApprovalRequired({ tool: "dangerous", door: "/v1/chat/completions" }).message
    })

    // /mcp cannot ask either: the same refusal, marked as tools/list marks the tool.
    expect(await mcp(secret, "dangerous", { text: "rm" })).toEqual({
      isError: true,
      text: new ApprovalRequired({ tool: "dangerous", door: "/mcp" }).message,
      meta: { "parley/approvalRequired": true }
    })
    expect(runs).toEqual([])
    const rows = await gateway.ledgerRows({ keyId: id })
    expect(rows.map((row) => [row.protocol, row.outcome])).toEqual([
      ["mcp", "approval-required"],
      ["chat-completions", "finished"],
      ["ui", "approval-required"]
    ])
  })

  it("the sandbox owner: another key's sandbox is SandboxForbidden (403), none of that id UnknownSandbox (400)", async () => {
    const mine = await gateway.createKey({ tools: ["bash"] })
    const theirs = await gateway.createKey({ tools: ["bash"] })
    const sandbox = await createSandbox(gateway, mine.secret)
    const calls = gateway.upstream.requests.length
    for (const sandboxId of [sandbox.id, "sbx_000000000000000000000000"]) {
      const refused = await chat(theirs.secret, { allowedTools: ["bash"], sandboxId })
      expect(refused.status).toBe(sandboxId === sandbox.id ? 403 : 400)
      expect(refused.body).toMatchObject({
        error: sandboxId === sandbox.id ? "Forbidden" : "BadRequest",
        details: { sandboxId }
      })
      const answer = await mcp(theirs.secret, "bash", { command: "touch /workspace/intruded", _sandboxId: sandboxId })
      expect(answer).toMatchObject({ isError: true, text: refused.body.message })
      expect(carried(answer)).toEqual(refused.body)
    }
    // Refused before the model was called.
    expect(gateway.upstream.requests.length).toBe(calls)
    const rows = await gateway.ledgerRows({ keyId: theirs.id })
    expect(rows.map((row) => [row.protocol, row.outcome])).toEqual([
      ["mcp", "rejected"],
      ["ui", "rejected"],
      ["mcp", "rejected"],
      ["ui", "rejected"]
    ])
  })

  it("the request limits: one requestsPerMinute counts runs and tool calls alike, and refuses both the same", async () => {
    const { id, secret } = await gateway.createKey({ tools: ["echo"], limits: { requestsPerMinute: 1 } })
    expect(await mcp(secret, "echo", { text: "hi" })).toMatchObject({ isError: false })
    const before = await limitRefusals(gateway.url, "requestsPerMinute")
    const refused = await chat(secret, {})
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({
      error: "TooManyRequests",
      statusCode: 429,
      details: { limit: "requestsPerMinute", scope: "key" }
    })
    const answer = await mcp(secret, "echo", { text: "hi" })
    expect(answer.isError).toBe(true)
    expect(waitless(carried(answer))).toEqual(waitless(refused.body))
    expect(await limitRefusals(gateway.url, "requestsPerMinute")).toBe(before + 2)
    const rows = await gateway.ledgerRows({ keyId: id })
    expect(rows.map((row) => [row.protocol, row.refusedLimit])).toEqual([
      ["mcp", "requestsPerMinute"],
      ["ui", "requestsPerMinute"],
      ["mcp", null]
    ])
  })

  it("the budgets: a spent tokensPerDay refuses a run and a tool call alike", async () => {
    const { id, secret } = await gateway.createKey({ tools: ["echo"], limits: { tokensPerDay: 200 } })
    // The run's reservation (its prompt and 100) fits; the provider reports more, charged in full.
    gateway.upstream.enqueue({ type: "text", text: "ok", usage: { promptTokens: 150, completionTokens: 60 } })
    expect((await chat(secret, {})).status).toBe(200)
    const before = await limitRefusals(gateway.url, "tokensPerDay")
    const refused = await chat(secret, {})
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({
      error: "TooManyRequests",
      details: { limit: "tokensPerDay", scope: "key" }
    })
    const answer = await mcp(secret, "echo", { text: "hi" })
    expect(answer.isError).toBe(true)
    expect(waitless(carried(answer))).toEqual(waitless(refused.body))
    expect(await limitRefusals(gateway.url, "tokensPerDay")).toBe(before + 2)
    const rows = await gateway.ledgerRows({ keyId: id })
    expect(rows.map((row) => [row.protocol, row.refusedLimit, row.totalTokens])).toEqual([
      ["mcp", "tokensPerDay", null],
      ["ui", "tokensPerDay", null],
      ["ui", null, 210]
    ])
  })
})
