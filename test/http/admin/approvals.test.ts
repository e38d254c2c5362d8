import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bearer, postJson } from "../../support/http.ts"
import { type AdminWorld, expectError, startAdminWorld } from "./adminClient.ts"

let world: AdminWorld

beforeAll(async () => {
  world = await startAdminWorld()
}, 60_000)
afterAll(() => world.gateway.close())

/** Which tools validateOnly says wait for approval with this key. */
const waiting = async (secret: string) => {
  const response = await postJson(`${world.gateway.url}/api/v1/chat`, {
    model: "test/m1",
    messages: [],
    validateOnly: true,
    allowedTools: ["bash", "computer"]
  }, bearer(secret))
  const report = await response.json()
  return report.tools.filter((tool: { approvalRequired?: boolean }) => tool.approvalRequired).map((t: any) => t.name)
}

describe("approvalRequired through the admin API (docs/DESIGN.md §10)", () => {
  it("is stored on accounts and keys, shown, and effective as key ∪ account", async () => {
    const accountId = world.sessions.a.accountId
    const account = await world.call("operator", "PATCH", `/admin/v1/accounts/${accountId}`, {
      body: { approvalRequired: ["bash"] }
    })
    expect(account.status).toBe(200)
    expect(account.body.data.account.approvalRequired).toEqual(["bash"])

    const created = await world.call("a", "POST", "/admin/v1/keys", {
      body: { name: "k", allowedModels: ["test/m1"], allowedTools: ["*"], approvalRequired: ["computer"] }
    })
    expect(created.status).toBe(201)
    const { key, secret } = created.body.data
    expect(key.approvalRequired).toEqual(["computer"])
    expect((await world.call("a", "GET", `/admin/v1/keys/${key.id}`)).body.data.key.approvalRequired).toEqual([
      "computer"
    ])
    expect(await waiting(secret)).toEqual(["bash", "computer"])

    // A key cannot waive what its account requires.
    const edited = await world.call("a", "PATCH", `/admin/v1/keys/${key.id}`, { body: { approvalRequired: [] } })
    expect(edited.body.data.key.approvalRequired).toEqual([])
    // The key cache keeps a lookup for at most a second or two.
    await new Promise((done) => setTimeout(done, 2_500))
    expect(await waiting(secret)).toEqual(["bash"])
  })

  it("refuses entries that name no tool, listing them", async () => {
    const answer = await world.call("a", "POST", "/admin/v1/keys", {
      body: { name: "k", allowedModels: ["*"], allowedTools: [], approvalRequired: ["bsh"] }
    })
    expectError(answer, 400, "BadRequest")
    expect(answer.body.message).toContain("bsh")
    const account = await world.call("operator", "PATCH", `/admin/v1/accounts/${world.sessions.b.accountId}`, {
      body: { approvalRequired: ["nope"] }
    })
    expectError(account, 400, "BadRequest")
  })
})
