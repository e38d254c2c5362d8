import { afterAll, beforeAll, describe, expect, it } from "vitest"
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
