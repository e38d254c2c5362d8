import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

let gateway: TestGateway
let secret: string
let keyId: string

beforeAll(async () => {
  gateway = await startGateway()
  ;({ id: keyId, secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const expect401 = async (response: Response, message: string) => {
  expect(response.status).toBe(401)
  expect(response.headers.get("x-correlation-id")).toBeNull()
  expect(await response.json()).toEqual({ error: "Unauthorized", message, statusCode: 401 })
}

describe("authentication before routing", () => {
  it("answers a missing header with the spec's exact message", async () => {
    await expect401(await fetch(`${gateway.url}/api/v1/models`), "Missing authorization header")
  })

  it("answers a header not in Bearer form", async () => {
    for (const value of [`Basic ${secret}`, secret, "Bearer", "Bearer  "]) {
      const response = await fetch(`${gateway.url}/api/v1/models`, { headers: { authorization: value } })
      await expect401(response, "Invalid authorization format. Use: Bearer <token>")
    }
  })

  it("answers an unknown key", async () => {
    const response = await fetch(`${gateway.url}/api/v1/models`, { headers: bearer("pk_nope") })
    await expect401(response, "Invalid or expired API key")
  })

  it("answers 401 before routing: an unknown path with a bad key is 401, with a good key 404", async () => {
    await expect401(await fetch(`${gateway.url}/api/v1/nope`), "Missing authorization header")
    await expect401(await fetch(`${gateway.url}//api/v1/models`), "Missing authorization header")
    const found = await fetch(`${gateway.url}/api/v1/nope`, { headers: bearer(secret) })
    expect(found.status).toBe(404)
    const body = await found.json()
    expect(body).toMatchObject({ error: "NotFound", statusCode: 404 })
    expect(body.correlationId).toBe(found.headers.get("x-correlation-id"))
  })

  it("runs before the body is looked at: a bad body with no key is 401, not 400", async () => {
    await expect401(await postJson(`${gateway.url}/api/v1/chat`, "{not json"), "Missing authorization header")
  })

  it("refuses an expired key", async () => {
    const expired = await gateway.createKey({ expiresAt: new Date(Date.now() - 1000) })
    const response = await fetch(`${gateway.url}/api/v1/models`, { headers: bearer(expired.secret) })
    await expect401(response, "Invalid or expired API key")
  })

  it("stops a deactivated key within 5 s and lets it back when activated", async () => {
    const { id, secret: other } = await gateway.createKey()
    expect((await fetch(`${gateway.url}/api/v1/models`, { headers: bearer(other) })).status).toBe(200)
    await gateway.setStatus(id, "inactive")
    const deadline = Date.now() + 5_000
    let status = 200
    while (Date.now() < deadline && status === 200) {
      status = (await fetch(`${gateway.url}/api/v1/models`, { headers: bearer(other) })).status
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(status).toBe(401)
    await gateway.setStatus(id, "active")
  })

  it("keeps the key out of every answer", async () => {
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ model: "bad" }), bearer(secret))
    expect(response.status).toBe(400)
    expect(await response.text()).not.toContain(secret)
    expect(keyId).toBeTruthy()
  })

  it("leaves /health, /openapi.json and /docs open", async () => {
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200)
    expect((await fetch(`${gateway.url}/openapi.json`)).status).toBe(200)
    expect((await fetch(`${gateway.url}/docs`)).status).toBe(200)
  })
})
