import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AdminWorld, expectError, startAdminWorld } from "./adminClient.ts"

/** GET /admin/v1/catalog: what the console's allow-list editor offers (docs/DESIGN.md §6). */
let world: AdminWorld

beforeAll(async () => {
  world = await startAdminWorld()
}, 60_000)
afterAll(() => world.gateway.close())

describe("the admin catalog", () => {
  it("offers the operator every model and tool, a session only what its account admits", async () => {
    const operator = await world.call("operator", "GET", "/admin/v1/catalog")
    expect(operator.status).toBe(200)
    expect(operator.body.data.models).toEqual([
      { id: "test/m1", name: "Model One" },
      { id: "test/m2", name: "Model Two" }
    ])
    const tools = operator.body.data.tools.map((tool: { name: string }) => tool.name)
    expect(tools).toContain("bash")
    // Ana's account admits test/m1 only; Bo's everything.
    const a = await world.call("a", "GET", "/admin/v1/catalog")
    expect(a.body.data.models).toEqual([{ id: "test/m1", name: "Model One" }])
    expect(a.body.data.tools.map((tool: { name: string }) => tool.name)).toEqual(tools)
    const b = await world.call("b", "GET", "/admin/v1/catalog")
    expect(b.body.data).toEqual(operator.body.data)
  })

  it("needs credentials, and no API key reaches it", async () => {
    expectError(await world.call("none", "GET", "/admin/v1/catalog"), 401, "Unauthorized")
    const { secret } = await world.gateway.createKey()
    expectError(
      await world.call("none", "GET", "/admin/v1/catalog", { headers: { authorization: `Bearer ${secret}` } }),
      401,
      "Unauthorized"
    )
  })
})
