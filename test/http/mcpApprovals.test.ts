import { Effect } from "effect"
import type { McpSchema } from "effect/ai"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Accounts } from "../../src/auth/Accounts.ts"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { limitRefusals } from "../support/http.ts"
import { httpServerEntry, type RunningServer } from "../support/mcp/everything.ts"
import { startFakeMcpServer } from "../support/mcp/fakeServer.ts"
import { textOf, withParleyClient } from "../support/mcp/parleyClient.ts"
import { makeTestTool } from "../support/tools.ts"

let gateway: TestGateway
let fake: RunningServer & { readonly calls: Array<unknown> }
let runs: Array<unknown> = []

const dangerous = makeTestTool({
  name: "dangerous",
  execute: (input: { text: string }) => Effect.sync(() => (runs.push(input), { done: input.text }))
})

beforeAll(async () => {
  fake = await startFakeMcpServer({ type: "object", properties: { word: { type: "string" } } })
  gateway = await startGateway({
    tools: [dangerous, makeTestTool({ name: "echo" })],
    observability: { metricsPublic: true },
    config: { mcpServers: [httpServerEntry("fake", fake.url)] }
  })
}, 30_000)
afterAll(async () => {
  await gateway?.close()
  await fake?.close()
})
beforeEach(() => {
  runs = []
  fake.calls.length = 0
})

const REFUSAL = (name: string) =>
  `Tool ${name} needs a person's approval (the key's approvalRequired list), which /mcp cannot ask for: ` +
  "call it through POST /api/v1/chat, where approvals are supported"

/** Lists the key's tools, then calls each of `calls` in order, as `secret` over /mcp. */
const listAndCall = (secret: string, calls: ReadonlyArray<readonly [string, Record<string, unknown>]>) =>
  withParleyClient(gateway.url, secret, (client) =>
    Effect.gen(function*() {
      const tools = yield* client.listTools()
      const results: Array<{ readonly isError: boolean; readonly text: string }> = []
      for (const [name, args] of calls) {
        const result = yield* client.callTool({ tool: tools.find((tool) => tool.name === name)!, arguments: args })
        results.push({ isError: result.isError ?? false, text: textOf(result) })
      }
      return { tools, results }
    }))

const marked = (tool: McpSchema.Tool | undefined) => ({
  approval: tool?._meta?.["parley/approvalRequired"] ?? false,
  noted: tool?.description?.includes("needs a person's approval") ?? false
})

/** A key of a new account that names `approve` for approval; the key itself names none. */
const keyUnderAccount = async (approve: ReadonlyArray<string>, tools: ReadonlyArray<string>) => {
  const account = await Effect.runPromise(Effect.orDie(
    gateway.service(Accounts).create({
      name: "careful",
      email: `mcp-approvals-${Date.now()}-${Math.random()}@example.com`,
      allowedModels: ["*"],
      allowedTools: ["*"],
      approvalRequired: approve
    })
  ))
  const { secret } = await Effect.runPromise(
    gateway.service(ApiKeys).create({ name: "k", allowedModels: ["*"], allowedTools: tools, accountId: account.id })
  )
  return secret
}

describe("approvals on /mcp tool calls (docs/DESIGN.md §9, §10)", () => {
  it("never runs a tool the key names for approval, charges no limit for it, and records why", async () => {
    const { id, secret } = await gateway.createKey({
      tools: ["dangerous", "echo"],
      approve: ["dangerous"],
      limits: { requestsPerMinute: 1 }
    })
    const refusedBefore = await limitRefusals(gateway.url, "requestsPerMinute")
    const { results, tools } = await listAndCall(secret, [["dangerous", { text: "rm" }], ["echo", { text: "hi" }]])
    expect(results[0]).toEqual({ isError: true, text: REFUSAL("dangerous") })
    expect(runs).toEqual([])
    // The refusal took nothing of the one request a minute: echo still runs.
    expect(results[1]!.isError).toBe(false)
    expect(await limitRefusals(gateway.url, "requestsPerMinute")).toBe(refusedBefore)

    // Listed, and marked so that a client and its model know before they call.
    expect(tools.map((tool) => tool.name).sort()).toEqual(["dangerous", "echo"])
    expect(marked(tools.find((tool) => tool.name === "dangerous"))).toEqual({ approval: true, noted: true })
    expect(marked(tools.find((tool) => tool.name === "echo"))).toEqual({ approval: false, noted: false })

    const rows = await gateway.ledgerRows({ keyId: id })
    expect(rows.map((row) => [row.outcome, row.status, row.refusedLimit, row.toolCalls])).toEqual([
      ["finished", 200, null, { echo: 1 }],
      ["approval-required", 200, null, {}]
    ])
    expect(rows.map((row) => row.protocol)).toEqual(["mcp", "mcp"])
  })

  it("refuses a tool that only the key's account names for approval, by name or by pattern", async () => {
    const secret = await keyUnderAccount(["dangerous", "fake__*"], ["dangerous", "fake__lookup"])
    const calls = [["dangerous", { text: "rm" }], ["fake__lookup", { word: "x" }]] as const
    const { results, tools } = await listAndCall(secret, calls)
    expect(results).toEqual([
      { isError: true, text: REFUSAL("dangerous") },
      { isError: true, text: REFUSAL("fake__lookup") }
    ])
    expect(runs).toEqual([])
    expect(fake.calls).toEqual([])
    expect(tools.map(marked)).toEqual([{ approval: true, noted: true }, { approval: true, noted: true }])
  })

  it("refuses an MCP server's tool that the key names by pattern; a key without it runs the tool", async () => {
    const careful = await gateway.createKey({ tools: ["fake__lookup"], approve: ["fake__*"] })
    const { results } = await listAndCall(careful.secret, [["fake__lookup", { word: "x" }]])
    expect(results).toEqual([{ isError: true, text: REFUSAL("fake__lookup") }])
    expect(fake.calls).toEqual([])

    const plain = await gateway.createKey({ tools: ["fake__lookup"] })
    const ran = await listAndCall(plain.secret, [["fake__lookup", { word: "x" }]])
    expect(ran.results).toEqual([{ isError: false, text: "found {\"word\":\"x\"}" }])
    expect(fake.calls).toEqual([{ word: "x" }])
    expect(ran.tools.map(marked)).toEqual([{ approval: false, noted: false }])
  })
})
