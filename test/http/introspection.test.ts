import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeIntrospection, startIntrospection } from "../auth/introspectionServer.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

let fake: FakeIntrospection
let gateway: TestGateway
let down: TestGateway

beforeAll(async () => {
  fake = await startIntrospection()
  gateway = await startGateway({ config: { introspectionUrl: fake.url } })
  down = await startGateway({ config: { introspectionUrl: "http://127.0.0.1:9/introspect" } })
})
afterAll(async () => {
  await Promise.all([gateway.close(), down.close()])
  await fake.close()
})

describe("external authentication at /api/v1 (docs/DESIGN.md §6)", () => {
  it("admits an active token with the answer's allow-lists", async () => {
    fake.answers.set("ext-1", { active: true, parley_models: "test/m2" })
    const response = await fetch(`${gateway.url}/api/v1/models`, { headers: bearer("ext-1") })
    expect(response.status).toBe(200)
    expect((await response.json()).data.models.map((model: { id: string }) => model.id)).toEqual(["test/m2"])
    const refused = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ model: "test/m1" }), bearer("ext-1"))
    expect(refused.status).toBe(403)
  })

  it("refuses an inactive token with the spec's 401", async () => {
    const response = await fetch(`${gateway.url}/api/v1/models`, { headers: bearer("ext-inactive") })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({
      error: "Unauthorized",
      message: "Invalid or expired API key",
      statusCode: 401
    })
  })

  it("answers 503 ServiceUnavailable, never admission, when the service is down", async () => {
    for (
      const response of [
        await fetch(`${down.url}/api/v1/models`, { headers: bearer("ext-1") }),
        await postJson(`${down.url}/api/v1/chat`, chatBody(), bearer("ext-1"))
      ]
    ) {
      expect(response.status).toBe(503)
      const body = await response.json()
      expect(body).toMatchObject({ error: "ServiceUnavailable", statusCode: 503 })
      expect(body.correlationId).toBe(response.headers.get("x-correlation-id"))
      expect(JSON.stringify(body)).not.toContain("ext-1")
    }
  })
})
