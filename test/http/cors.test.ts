import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

/** docs/DESIGN.md §3.19: CORS is off unless PARLEY_CORS_ORIGINS lists origins; then preflights skip authentication. */
const PAGE = "https://app.example"

const preflight = (url: string, origin: string) =>
  fetch(url, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type"
    }
  })

describe("CORS off (no PARLEY_CORS_ORIGINS)", () => {
  let gateway: TestGateway
  beforeAll(async () => (gateway = await startGateway()))
  afterAll(() => gateway.close())

  it("answers a preflight as any unauthenticated request, with no CORS headers", async () => {
    const response = await preflight(`${gateway.url}/api/v1/chat`, PAGE)
    expect(response.status).toBe(401)
    expect(response.headers.get("access-control-allow-origin")).toBeNull()
  })
})

describe("CORS on", () => {
  let gateway: TestGateway
  let secret: string
  beforeAll(async () => {
    gateway = await startGateway({
      config: { operations: { shutdownGraceMs: 30_000, corsOrigins: [PAGE, "http://localhost:5173"] } }
    })
    ;({ secret } = await gateway.createKey())
  })
  afterAll(() => gateway.close())

  it("answers a preflight from a listed origin before authentication", async () => {
    for (const path of ["/api/v1/chat", "/api/v1/models", "/api/v1/sandboxes/sbx_1"]) {
      const response = await preflight(`${gateway.url}${path}`, PAGE)
      expect(response.status, path).toBe(204)
      expect(response.headers.get("access-control-allow-origin")).toBe(PAGE)
      expect(response.headers.get("vary")).toBe("Origin")
      expect(response.headers.get("access-control-allow-methods")).toContain("POST")
      const allowed = response.headers.get("access-control-allow-headers")?.toLowerCase().split(/,\s*/)
      expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "x-correlation-id"]))
      expect(Number(response.headers.get("access-control-max-age"))).toBeGreaterThan(0)
    }
  })

  it("gives an unlisted origin no CORS headers, and its preflight is refused as unauthenticated", async () => {
    const response = await preflight(`${gateway.url}/api/v1/chat`, "https://evil.example")
    expect(response.status).toBe(401)
    expect(response.headers.get("access-control-allow-origin")).toBeNull()
    const answer = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), {
      ...bearer(secret),
      origin: "https://evil.example"
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get("access-control-allow-origin")).toBeNull()
  })

  it("lets a listed page read a chat answer and its headers, streamed or not", async () => {
    for (const stream of [false, true]) {
      gateway.upstream.enqueue({ type: "text", text: "hello page" })
      const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream }), {
        ...bearer(secret),
        origin: PAGE
      })
      await response.text()
      expect(response.status).toBe(200)
      expect(response.headers.get("access-control-allow-origin")).toBe(PAGE)
      expect(response.headers.get("vary")).toBe("Origin")
      const exposed = response.headers.get("access-control-expose-headers")?.split(/,\s*/)
      expect(exposed).toEqual(expect.arrayContaining(["X-Correlation-Id", "X-Message-Pruned", "X-Tools-Skipped"]))
      expect(response.headers.get("x-correlation-id")).not.toBeNull()
    }
  })

  it("puts the headers on routed answers and errors alike", async () => {
    const models = await fetch(`${gateway.url}/api/v1/models`, { headers: { ...bearer(secret), origin: PAGE } })
    expect(models.status).toBe(200)
    expect(models.headers.get("access-control-allow-origin")).toBe(PAGE)
    const refused = await fetch(`${gateway.url}/api/v1/models`, { headers: { origin: "http://localhost:5173" } })
    expect(refused.status).toBe(401)
    expect(refused.headers.get("access-control-allow-origin")).toBe("http://localhost:5173")
  })

  it("lets a listed page call /mcp, and refuses an unlisted one there (docs/DESIGN.md §9)", async () => {
    const list = (origin: string) =>
      fetch(`${gateway.url}/mcp`, {
        method: "POST",
        headers: {
          ...bearer(secret),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          origin
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
      })
    const listed = await list(PAGE)
    expect(listed.status).toBe(200)
    expect(listed.headers.get("access-control-allow-origin")).toBe(PAGE)
    expect((await list("https://evil.example")).status).toBe(403)
  })
})

describe("CORS for any origin (*)", () => {
  let gateway: TestGateway
  beforeAll(async () => {
    gateway = await startGateway({ config: { operations: { shutdownGraceMs: 30_000, corsOrigins: ["*"] } } })
  })
  afterAll(() => gateway.close())

  it("allows every origin with *", async () => {
    const response = await preflight(`${gateway.url}/api/v1/chat`, "https://anywhere.example")
    expect(response.status).toBe(204)
    expect(response.headers.get("access-control-allow-origin")).toBe("*")
  })
})
