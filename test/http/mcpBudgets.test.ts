import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Accounts } from "../../src/auth/Accounts.ts"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import { Budgets } from "../../src/governance/Budgets.ts"
import { ModelRegistry } from "../../src/models/ModelRegistry.ts"
import type { BudgetLimit } from "../../src/store/budgetWindows.ts"
import { makeJobsiteReplyGenerator } from "../../src/tools/jobsite/jobsiteReplyGenerator.ts"
import { createSchema, describePostgres } from "../store/postgres.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { limitRefusals } from "../support/http.ts"
import { textOf, withParleyClient } from "../support/mcp/parleyClient.ts"
import { makeTestTool } from "../support/tools.ts"
import { configData, replyPrompts } from "../tools/jobsite/fixtures.ts"

// One reply is two model calls of `test/m1`: 40 tokens to classify, 60 to write; 100 tokens, $0.1 at this price.
const CLASSIFY_USAGE = { promptTokens: 30, completionTokens: 10 }
const REPLY_USAGE = { promptTokens: 40, completionTokens: 20 }
const pricing = { inputPerMTok: 1_000, outputPerMTok: 1_000 }
const REPLY = "Barista pays 26 CNY per hour, Shift Lead 32 CNY per hour."

const context = {
  preferredBrand: "Harbor Coffee",
  configData,
  replyPrompts,
  modelConfig: { classifyModel: "test/m1", replyModel: "test/m1" }
}

interface Backend {
  readonly databaseUrl?: string
  readonly redisUrl?: string
  readonly drop?: () => Promise<void>
}

/**
 * docs/DESIGN.md §11: a tool call through /mcp is refused once a budget of
 * its key or account is spent, and what the tool's own model calls used (the
 * recruiting-reply generator, over the scripted upstream) is charged to it
 * and written to the ledger; a key without budgets is unaffected.
 */
const budgetSuite = (backend: () => Promise<Backend>) => {
  let gateway: TestGateway
  let drop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    const chosen = await backend()
    drop = chosen.drop
    // The tool exists before the gateway does: it reaches the gateway's own model registry once that is up.
    const models = ModelRegistry.of({
      catalog: [],
      find: (id) => gateway.service(ModelRegistry).find(id),
      replace: () => Effect.void
    })
    gateway = await startGateway({
      pricing,
      tools: [makeJobsiteReplyGenerator(models), makeTestTool({ name: "echo" })],
      observability: { metricsPublic: true },
      ...(chosen.databaseUrl === undefined ? {} : { databaseUrl: chosen.databaseUrl }),
      ...(chosen.redisUrl === undefined ? {} : { config: { redisUrl: Redacted.make(chosen.redisUrl) } })
    })
  }, 30_000)
  afterAll(async () => {
    await gateway?.close()
    await drop?.()
  })

  const used = (scope: string, limit: BudgetLimit) =>
    gateway.run(Effect.map(gateway.service(Budgets).budgetUsed(scope, limit, Date.now()), (use) => use.used))

  /** Calls the reply generator and echo through /mcp as `secret`, in order (the replies' model calls scripted first). */
  const callTools = (secret: string, calls: ReadonlyArray<"reply" | "echo">) =>
    withParleyClient(gateway.url, secret, (client) =>
      Effect.gen(function*() {
        const tools = yield* client.listTools()
        const results: Array<{ readonly isError: boolean; readonly text: string }> = []
        for (const call of calls) {
          const tool = tools.find((t) => t.name === (call === "reply" ? "jobsite_reply_generator" : "echo"))!
          const result = yield* client.callTool({
            tool,
            arguments: call === "reply"
              ? { message: "How much does it pay?", _context: context }
              : { text: "hi" }
          })
          results.push({ isError: result.isError ?? false, text: textOf(result) })
        }
        return results
      }))

  const scriptReplies = (count: number) => {
    for (let i = 0; i < count; i++) {
      gateway.upstream.enqueue(
        { type: "text", text: JSON.stringify({ category: "pay" }), usage: CLASSIFY_USAGE },
        { type: "text", text: REPLY, usage: REPLY_USAGE }
      )
    }
  }

  it("charges a tool's own model calls to tokensPerDay and refuses every tool call once it is spent", async () => {
    const { id, secret } = await gateway.createKey({
      tools: ["jobsite_reply_generator", "echo"],
      limits: { tokensPerDay: 150 }
    })
    const refusedBefore = await limitRefusals(gateway.url, "tokensPerDay")
    // A tool that calls no model costs nothing; the first reply uses 100 of 150; the second is admitted (the
    // budget has room) and charged in full, passing it by 50; then every call is refused, echo's too.
    scriptReplies(2)
    const [echoed, first, second] = await callTools(secret, ["echo", "reply", "reply"])
    expect([echoed, first, second].map((r) => r!.isError)).toEqual([false, false, false])
    expect(JSON.parse(second!.text).reply).toBe(REPLY)
    expect(await used(`key:${id}`, "tokensPerDay")).toBe(200)

    const upstreamCalls = gateway.upstream.requests.length
    const refused = await callTools(secret, ["reply", "echo"])
    for (const result of refused) {
      expect(result.isError).toBe(true)
      expect(result.text).toMatch(/^Over the key's tokensPerDay limit; retry after \d+ s$/)
    }
    expect(gateway.upstream.requests.length).toBe(upstreamCalls)
    expect(await used(`key:${id}`, "tokensPerDay")).toBe(200)
    expect(await limitRefusals(gateway.url, "tokensPerDay")).toBe(refusedBefore + 2)

    const rows = await gateway.ledgerRows({ keyId: id })
    expect(rows.map((row) => [row.outcome, row.status, row.refusedLimit, row.model, row.totalTokens, row.toolCalls]))
      .toEqual([
        ["rejected", 200, "tokensPerDay", null, null, {}],
        ["rejected", 200, "tokensPerDay", null, null, {}],
        ["finished", 200, null, "test/m1", 100, { jobsite_reply_generator: 1 }],
        ["finished", 200, null, "test/m1", 100, { jobsite_reply_generator: 1 }],
        ["finished", 200, null, null, null, { echo: 1 }]
      ])
    expect(rows[2]).toMatchObject({ inputTokens: 70, outputTokens: 30, steps: 0 })
    expect(rows[2]!.costUsd).toBeCloseTo(0.1, 9)
  })

  it("charges what a failed tool used before it failed", async () => {
    const { id, secret } = await gateway.createKey({
      tools: ["jobsite_reply_generator"],
      limits: { tokensPerDay: 1_000 }
    })
    gateway.upstream.enqueue(
      { type: "text", text: JSON.stringify({ category: "pay" }), usage: CLASSIFY_USAGE },
      { type: "error", status: 400, body: { error: { message: "bad request" } } }
    )
    const [failed] = await callTools(secret, ["reply"])
    expect(failed!.isError).toBe(true)
    expect(await used(`key:${id}`, "tokensPerDay")).toBe(40)
    const [row] = await gateway.ledgerRows({ keyId: id })
    expect(row).toMatchObject({ outcome: "error", status: 200, totalTokens: 40, refusedLimit: null })
  })

  it("counts cost at the tool's models' pricing against the account's costPerMonthUsd", async () => {
    const account = await Effect.runPromise(Effect.orDie(
      gateway.service(Accounts).create({
        name: "mcp",
        email: `mcp-budget-${Date.now()}-${Math.random()}@example.com`,
        allowedModels: ["*"],
        allowedTools: ["*"],
        limits: { costPerMonthUsd: 0.15 }
      })
    ))
    const { secret } = await Effect.runPromise(
      gateway.service(ApiKeys).create({
        name: "k",
        allowedModels: ["*"],
        allowedTools: ["jobsite_reply_generator"],
        accountId: account.id
      })
    )
    scriptReplies(2)
    const results = await callTools(secret, ["reply", "reply", "reply"])
    expect(results.map((r) => r.isError)).toEqual([false, false, true])
    expect(results[2]!.text).toMatch(/^Over the account's costPerMonthUsd limit; retry after \d+ s$/)
    expect(await used(`account:${account.id}`, "costPerMonthUsd")).toBeCloseTo(0.2, 9)
  })

  it("leaves a key without budgets unaffected, its usage in the ledger", async () => {
    const { id, secret } = await gateway.createKey({ tools: ["jobsite_reply_generator", "echo"] })
    scriptReplies(3)
    const results = await callTools(secret, ["reply", "reply", "reply", "echo"])
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false])
    expect(await used(`key:${id}`, "tokensPerDay")).toBe(0)
    const rows = await gateway.ledgerRows({ keyId: id })
    expect(rows.map((row) => row.totalTokens)).toEqual([null, 100, 100, 100])
  })
}

describe("budgets on /mcp tool calls (docs/DESIGN.md §11) over SQLite", () => budgetSuite(async () => ({})))

describePostgres("budgets on /mcp tool calls over Postgres", () =>
  budgetSuite(async () => {
    const { url, drop } = await createSchema()
    return { databaseUrl: url, drop }
  }))

describeRedis("budgets on /mcp tool calls with the counters in Redis", () => budgetSuite(async () => ({ redisUrl })))
