import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Accounts } from "../../src/auth/Accounts.ts"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import { Budgets } from "../../src/governance/Budgets.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, limitRefusals, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

// `test/m1` may write 100 tokens a call, so a call reserves its prompt (a few tokens) plus 100;
// each scripted answer really uses 50. A token costs $0.001 at this price.
const CAP = 100
const USAGE = { promptTokens: 5, completionTokens: 45 }
const pricing = { inputPerMTok: 1_000, outputPerMTok: 1_000 }

let gateway: TestGateway
const logs: Array<string> = []
beforeAll(async () => {
  gateway = await startGateway({
    maxOutputTokens: CAP,
    pricing,
    tools: [makeTestTool({ name: "echo" })],
    observability: { metricsPublic: true },
    observe: { logSink: (line) => void logs.push(line) }
  })
})
afterAll(() => gateway.close())

const chat = (secret: string, overrides: Record<string, unknown> = {}) =>
  postJson(`${gateway.url}/api/v1/chat`, chatBody(overrides), bearer(secret))

const answered = (secret: string) => {
  gateway.upstream.enqueue({ type: "text", text: "ok", usage: USAGE })
  return chat(secret)
}

const nextUtcMidnight = () => {
  const now = new Date()
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
}

const refusals = (limit: string) => limitRefusals(gateway.url, limit)

describe("token and cost budgets on POST /api/v1/chat (docs/DESIGN.md §11)", () => {
  it("reserves the prompt and the output cap, settles the real usage, and refuses what does not fit with 429", async () => {
    const { id, secret } = await gateway.createKey({ limits: { tokensPerDay: 200 } })
    const budgets = gateway.service(Budgets)
    // 0 + (prompt + 100) fits; so does 50 + (prompt + 100); 100 + (prompt + 100) does not.
    expect((await answered(secret)).status).toBe(200)
    const used = await gateway.run(budgets.budgetUsed(`key:${id}`, "tokensPerDay", Date.now()))
    expect(used).toEqual({ used: 50, resetAt: new Date(nextUtcMidnight()).toISOString() })
    expect((await answered(secret)).status).toBe(200)
    const before = await refusals("tokensPerDay")
    const refused = await chat(secret)
    expect(refused.status).toBe(429)
    const body = await refused.json()
    expect(body).toMatchObject({
      error: "TooManyRequests",
      details: { limit: "tokensPerDay", scope: "key", resetAt: new Date(nextUtcMidnight()).toISOString() }
    })
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(Math.abs(retryAfter - (nextUtcMidnight() - Date.now()) / 1000)).toBeLessThan(3)
    // A stream is refused the same way, before anything is streamed.
    const stream = await chat(secret, { stream: true })
    expect([stream.status, stream.headers.get("content-type")]).toEqual([429, "application/json"])
    // A refusal holds nothing, and the model was not called for it.
    expect((await gateway.run(budgets.budgetUsed(`key:${id}`, "tokensPerDay", Date.now()))).used).toBe(100)
    expect(await refusals("tokensPerDay")).toBe(before + 2)

    const rows = await gateway.ledgerRows({ keyId: id })
    expect(rows.map((row) => [row.status, row.outcome, row.refusedLimit, row.totalTokens])).toEqual([
      [429, "rejected", "tokensPerDay", null],
      [429, "rejected", "tokensPerDay", null],
      [200, "finished", null, 50],
      [200, "finished", null, 50]
    ])
  })

  it("counts an account's budget over all its keys; a refusal in one scope releases what the other took", async () => {
    const account = await Effect.runPromise(Effect.orDie(
      gateway.service(Accounts).create({
        name: "shared",
        email: `budget-${Date.now()}@example.com`,
        allowedModels: ["*"],
        allowedTools: ["*"],
        limits: { tokensPerDay: 200 }
      })
    ))
    const keyOf = async () => {
      const { key, secret } = await Effect.runPromise(
        gateway.service(ApiKeys).create({
          name: "k",
          allowedModels: ["*"],
          allowedTools: ["*"],
          limits: { tokensPerDay: 10_000 },
          accountId: account.id
        })
      )
      return { id: key.id, secret }
    }
    const one = await keyOf()
    const two = await keyOf()
    expect((await answered(one.secret)).status).toBe(200)
    expect((await answered(two.secret)).status).toBe(200)
    const refused = await chat(one.secret)
    expect(refused.status).toBe(429)
    expect((await refused.json()).details).toMatchObject({ limit: "tokensPerDay", scope: "account" })
    const budgets = gateway.service(Budgets)
    const usedBy = (scope: string) =>
      gateway.run(Effect.map(budgets.budgetUsed(scope, "tokensPerDay", Date.now()), (use) => use.used))
    expect(await usedBy(`account:${account.id}`)).toBe(100)
    // The key's own reservation was taken first and given back.
    expect(await usedBy(`key:${one.id}`)).toBe(50)
  })

  it("counts cost at the model's pricing against costPerMonthUsd, until the month ends", async () => {
    const { id, secret } = await gateway.createKey({ limits: { costPerMonthUsd: 0.2 } })
    expect((await answered(secret)).status).toBe(200)
    const used = await gateway.run(gateway.service(Budgets).budgetUsed(`key:${id}`, "costPerMonthUsd", Date.now()))
    expect(used.used).toBeCloseTo(0.05, 9)
    expect((await answered(secret)).status).toBe(200)
    const refused = await chat(secret)
    expect(refused.status).toBe(429)
    expect((await refused.json()).details).toMatchObject({ limit: "costPerMonthUsd", scope: "key" })
    const now = new Date()
    expect(Number(refused.headers.get("retry-after")) * 1000).toBeGreaterThanOrEqual(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - Date.now() - 2_000
    )
  })

  it("stops a run whose next step would pass the budget with finishReason budget", async () => {
    const { id, secret } = await gateway.createKey({ limits: { tokensPerDay: 200 } })
    gateway.upstream.enqueue({ type: "tool-calls", calls: [{ name: "echo", arguments: { text: "hi" } }], usage: USAGE })
    const calls = gateway.upstream.requests.length
    const answer = await chat(secret, { allowedTools: ["echo"] })
    expect(answer.status).toBe(200)
    const body = await answer.json()
    expect(body.data).toMatchObject({ finished: false, finishReason: "budget", usage: { totalTokens: 50 } })
    // Step one ran its tool; step two (50 so far, plus its prompt and 100) was never sent.
    expect(gateway.upstream.requests.length - calls).toBe(1)
    const [row] = await gateway.ledgerRows({ keyId: id })
    expect(row).toMatchObject({ status: 200, outcome: "budget", finishReason: "budget", totalTokens: 50 })
    const used = await gateway.run(gateway.service(Budgets).budgetUsed(`key:${id}`, "tokensPerDay", Date.now()))
    expect(used.used).toBe(50)
    // With room for it, the same loop takes its second step, and both are settled.
    const roomy = await gateway.createKey({ limits: { tokensPerDay: 10_000 } })
    gateway.upstream.enqueue(
      { type: "tool-calls", calls: [{ name: "echo", arguments: { text: "hi" } }], usage: USAGE },
      { type: "text", text: "done", usage: USAGE }
    )
    const full = await (await chat(roomy.secret, { allowedTools: ["echo"] })).json()
    expect(full.data).toMatchObject({ finished: true, finishReason: "stop", usage: { totalTokens: 100 } })
    const settled = await gateway.run(
      gateway.service(Budgets).budgetUsed(`key:${roomy.id}`, "tokensPerDay", Date.now())
    )
    expect(settled.used).toBe(100)
    // A stream says so in its finish chunk.
    const other = await gateway.createKey({ limits: { tokensPerDay: 200 } })
    gateway.upstream.enqueue({ type: "tool-calls", calls: [{ name: "echo", arguments: { text: "hi" } }], usage: USAGE })
    const streamed = await (await chat(other.secret, { allowedTools: ["echo"], stream: true })).text()
    expect(streamed).toContain(`"finishReason":"budget"`)
  })

  it("costs 0 for a model without pricing, with one warning", async () => {
    const { secret } = await gateway.createKey({ limits: { costPerMonthUsd: 0.000001 } })
    for (let i = 0; i < 2; i++) {
      gateway.upstream.enqueue({ type: "text", text: "ok", usage: USAGE })
      expect((await chat(secret, { model: "test/m2" })).status).toBe(200)
    }
    expect(logs.filter((line) => line.includes("test/m2 has no pricing"))).toHaveLength(1)
  })
})
