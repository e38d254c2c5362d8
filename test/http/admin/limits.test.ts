import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bearer, chatBody, postJson } from "../../support/http.ts"
import { type AdminWorld, expectError, startAdminWorld } from "./adminClient.ts"

let world: AdminWorld

beforeAll(async () => {
  world = await startAdminWorld()
}, 60_000)
afterAll(() => world.gateway.close())

describe("limits through the admin API (docs/DESIGN.md §11)", () => {
  it("are stored on accounts and keys and shown; a key without them shows {}", async () => {
    const accountId = world.sessions.a.accountId
    const account = await world.call("operator", "PATCH", `/admin/v1/accounts/${accountId}`, {
      body: { limits: { requestsPerMinute: 100, costPerMonthUsd: 12.5 } }
    })
    expect(account.status).toBe(200)
    expect(account.body.data.account.limits).toEqual({ requestsPerMinute: 100, costPerMonthUsd: 12.5 })

    const plain = await world.call("a", "POST", "/admin/v1/keys", {
      body: { name: "plain", allowedModels: ["test/m1"], allowedTools: [] }
    })
    expect(plain.body.data.key.limits).toEqual({})

    const created = await world.call("a", "POST", "/admin/v1/keys", {
      body: { name: "k", allowedModels: ["test/m1"], allowedTools: [], limits: { concurrentRequests: 2 } }
    })
    expect(created.status).toBe(201)
    const id = created.body.data.key.id
    expect(created.body.data.key.limits).toEqual({ concurrentRequests: 2 })
    const edited = await world.call("a", "PATCH", `/admin/v1/keys/${id}`, {
      body: { limits: { requestsPerMinute: 5, tokensPerDay: 1000 } }
    })
    expect(edited.body.data.key.limits).toEqual({ requestsPerMinute: 5, tokensPerDay: 1000 })
    expect((await world.call("a", "GET", `/admin/v1/keys/${id}`)).body.data.key.limits).toEqual({
      requestsPerMinute: 5,
      tokensPerDay: 1000
    })
  })

  it("refuses a non-positive, fractional or unknown limit and changes nothing", async () => {
    for (
      const limits of [{ requestsPerMinute: 0 }, { concurrentRequests: 1.5 }, { costPerMonthUsd: -1 }, {
        requestPerMinute: 5
      }]
    ) {
      const answer = await world.call("a", "POST", "/admin/v1/keys", {
        body: { name: "bad", allowedModels: [], allowedTools: [], limits }
      })
      expectError(answer, 400, "BadRequest")
    }
    const listed = await world.call("a", "GET", "/admin/v1/keys")
    expect(listed.body.data.keys.map((key: { name: string }) => key.name)).not.toContain("bad")
  })
})

/** When today's tokensPerDay window resets: the next UTC midnight. */
const nextUtcDay = () => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString()
}

describe("limits and their current use (GET …/limits, docs/DESIGN.md §6)", () => {
  const chat = (secret: string) => {
    world.gateway.upstream.enqueue({ type: "text", text: "ok", usage: { promptTokens: 4, completionTokens: 6 } })
    return postJson(`${world.gateway.url}/api/v1/chat`, chatBody(), bearer(secret))
  }

  it("shows a key's configured limits with what it uses now; reading counts nothing", async () => {
    const created = await world.call("b", "POST", "/admin/v1/keys", {
      body: {
        name: "metered",
        allowedModels: ["test/m1"],
        allowedTools: [],
        limits: { requestsPerMinute: 3, concurrentRequests: 2, tokensPerDay: 5000 }
      }
    })
    const { key, secret } = created.body.data
    const path = `/admin/v1/keys/${key.id}/limits`
    const fresh = await world.call("b", "GET", path)
    expect(fresh.status).toBe(200)
    expect(fresh.body).toEqual({
      success: true,
      data: {
        limits: { requestsPerMinute: 3, concurrentRequests: 2, tokensPerDay: 5000 },
        consumption: {
          requestsPerMinute: { used: 0, limit: 3 },
          concurrentRequests: { used: 0, limit: 2 },
          tokensPerDay: { used: 0, limit: 5000, resetAt: nextUtcDay() }
        }
      }
    })
    const started = Date.now()
    for (let i = 0; i < 2; i++) expect((await chat(secret)).status).toBe(200)
    for (let i = 0; i < 3; i++) await world.call("operator", "GET", path)
    const after = (await world.call("b", "GET", path)).body.data.consumption
    expect(after.requestsPerMinute).toMatchObject({ used: 2, limit: 3 })
    const resetAt = Date.parse(after.requestsPerMinute.resetAt)
    expect(resetAt).toBeGreaterThanOrEqual(started + 60_000)
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 60_000)
    expect(after.concurrentRequests).toEqual({ used: 0, limit: 2 })
    // Each answer used 10 tokens; the reservations were settled to that.
    expect(after.tokensPerDay).toEqual({ used: 20, limit: 5000, resetAt: nextUtcDay() })
    // The reads took no place in the window: one request is still admitted, then the limit holds.
    expect((await chat(secret)).status).toBe(200)
    expect((await chat(secret)).status).toBe(429)
    expect((await world.call("b", "GET", path)).body.data.consumption.requestsPerMinute.used).toBe(3)
  })

  it("shows an account's limits counted over its keys; a key without limits shows nothing counted", async () => {
    const accountId = world.sessions.b.accountId
    await world.call("operator", "PATCH", `/admin/v1/accounts/${accountId}`, {
      body: { limits: { requestsPerMinute: 50, costPerMonthUsd: 3 } }
    })
    const before = (await world.call("b", "GET", `/admin/v1/accounts/${accountId}/limits`)).body.data
    const created = await world.call("b", "POST", "/admin/v1/keys", {
      body: { name: "unmetered", allowedModels: ["test/m1"], allowedTools: [] }
    })
    const { key, secret } = created.body.data
    expect((await world.call("b", "GET", `/admin/v1/keys/${key.id}/limits`)).body.data).toEqual({
      limits: {},
      consumption: {}
    })
    expect((await chat(secret)).status).toBe(200)
    const answer = await world.call("operator", "GET", `/admin/v1/accounts/${accountId}/limits`)
    expect(answer.status).toBe(200)
    expect(answer.body.data.limits).toEqual({ requestsPerMinute: 50, costPerMonthUsd: 3 })
    expect(Object.keys(answer.body.data.consumption).sort()).toEqual(["costPerMonthUsd", "requestsPerMinute"])
    // test/m1 has no pricing here: it costs nothing.
    const now = new Date()
    expect(answer.body.data.consumption.costPerMonthUsd).toEqual({
      used: 0,
      limit: 3,
      resetAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString()
    })
    expect(answer.body.data.consumption.requestsPerMinute.used).toBe(before.consumption.requestsPerMinute.used + 1)
  })

  it("shows a session only its own account's keys and account (404 otherwise); needs credentials", async () => {
    const created = await world.call("b", "POST", "/admin/v1/keys", {
      body: { name: "bo-only", allowedModels: ["test/m1"], allowedTools: [], limits: { concurrentRequests: 1 } }
    })
    const id = created.body.data.key.id
    expectError(await world.call("a", "GET", `/admin/v1/keys/${id}/limits`), 404, "NotFound")
    expectError(
      await world.call("a", "GET", `/admin/v1/accounts/${world.sessions.b.accountId}/limits`),
      404,
      "NotFound"
    )
    expectError(await world.call("operator", "GET", "/admin/v1/keys/key_missing/limits"), 404, "NotFound")
    expectError(await world.call("operator", "GET", "/admin/v1/accounts/acct_missing/limits"), 404, "NotFound")
    expectError(await world.call("none", "GET", `/admin/v1/keys/${id}/limits`), 401, "Unauthorized")
    expect((await world.call("a", "GET", `/admin/v1/accounts/${world.sessions.a.accountId}/limits`)).status).toBe(200)
  })
})
