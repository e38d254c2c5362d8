import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer } from "../support/http.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway()
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const expect405 = async (method: string, path: string, allow: string) => {
  const response = await fetch(`${gateway.url}${path}`, { method, headers: bearer(secret) })
  expect(response.status, `${method} ${path}`).toBe(405)
  expect(response.headers.get("allow")).toBe(allow)
  const body = await response.json()
  expect(body).toMatchObject({ error: "MethodNotAllowed", statusCode: 405, details: { allowed: allow.split(", ") } })
  expect(body.message).toContain(method)
  expect(body.correlationId).toBe(response.headers.get("x-correlation-id"))
}

describe("a known path with a method it does not answer (docs/DESIGN.md §3.22)", () => {
  it("answers 405 with Allow, for routed endpoints, the chat route and the docs", async () => {
    await expect405("POST", "/api/v1/models", "GET, HEAD")
    await expect405("DELETE", "/health", "GET, HEAD")
    await expect405("GET", "/api/v1/chat", "POST")
    await expect405("PUT", "/api/v1/sandboxes/sbx_1", "DELETE, GET, HEAD")
    await expect405("POST", "/docs", "GET, HEAD")
    await expect405("PUT", "/openapi.json", "GET, HEAD")
  })

  it("still answers 404 for an unknown path and 401 before routing without a key", async () => {
    const unknown = await fetch(`${gateway.url}/api/v1/nope`, { method: "DELETE", headers: bearer(secret) })
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get("allow")).toBeNull()
    const noKey = await fetch(`${gateway.url}/api/v1/models`, { method: "POST" })
    expect(noKey.status).toBe(401)
  })
})
