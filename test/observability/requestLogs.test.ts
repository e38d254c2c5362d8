import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

// Every secret these requests carry; none may reach a log line.
const ADMIN_TOKEN = "admin-token-7f3a9c2e41d8"
const METRICS_TOKEN = "metrics-token-5b8e0d2f93c1"
const PARTNER_TOKEN = "partner-token-c4d9e1f0a7b2"
const WEBHOOK_SECRET = "webhook-secret-8a2f6c1e9d34"

const lines: Array<string> = []
let gateway: TestGateway
let key: { readonly id: string; readonly secret: string }
let narrowKey: { readonly id: string; readonly secret: string }

beforeAll(async () => {
  gateway = await startGateway({
    tools: [makeTestTool({ name: "needs_token", requiredContext: [{ field: "partnerToken" }] })],
    observability: { metricsToken: Redacted.make(METRICS_TOKEN) },
    config: { adminToken: Redacted.make(ADMIN_TOKEN) },
    observe: { logSink: (line) => void lines.push(line) }
  })
  key = await gateway.createKey()
  narrowKey = await gateway.createKey({ models: ["test/m2"] })
})
afterAll(() => gateway.close())

const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>)

/** The `request` line of the request answered with `correlationId`. */
const requestLine = (correlationId: string) => {
  const found = entries().filter((entry) => entry.msg === "request" && entry.correlationId === correlationId)
  expect(found).toHaveLength(1)
  return found[0]!
}

const chat = async (body: unknown, secret = key.secret) => {
  const correlationId = `test-${Math.random().toString(36).slice(2)}`
  const response = await postJson(`${gateway.url}/api/v1/chat`, body, {
    ...bearer(secret),
    "x-correlation-id": correlationId
  })
  await response.text()
  return { status: response.status, correlationId }
}

const FIELDS = [
  "time",
  "level",
  "msg",
  "correlationId",
  "method",
  "path",
  "status",
  "durationMs",
  "keyId",
  "accountId",
  "model",
  "target",
  "attempts",
  "inputTokens",
  "outputTokens",
  "outcome"
]

describe("request logs (docs/DESIGN.md §8)", () => {
  it("an answered chat: one info line with the key, account, model, tokens and outcome ok", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Hello back", usage: { promptTokens: 12, completionTokens: 3 } })
    const { correlationId, status } = await chat(chatBody())
    expect(status).toBe(200)
    const line = requestLine(correlationId)
    expect(Object.keys(line)).toEqual(FIELDS)
    expect(line).toMatchObject({
      level: "info",
      method: "POST",
      path: "/api/v1/chat",
      status: 200,
      keyId: key.id,
      accountId: "default",
      model: "test/m1",
      inputTokens: 12,
      outputTokens: 3,
      outcome: "ok"
    })
    expect(line.durationMs).toBeGreaterThan(0)
    expect(Date.parse(String(line.time))).not.toBeNaN()
  })

  it("a tool loop: tokens summed over the steps", async () => {
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "call_1", name: "needs_token", arguments: { text: "ping" } }],
        usage: { promptTokens: 10, completionTokens: 5 }
      },
      { type: "text", text: "done", usage: { promptTokens: 30, completionTokens: 7 } }
    )
    const { correlationId, status } = await chat(chatBody({
      stream: true,
      allowedTools: ["needs_token"],
      toolContext: { needs_token: { partnerToken: PARTNER_TOKEN, webhookSecret: WEBHOOK_SECRET } }
    }))
    expect(status).toBe(200)
    expect(requestLine(correlationId)).toMatchObject({
      status: 200,
      model: "test/m1",
      inputTokens: 40,
      outputTokens: 12,
      outcome: "ok"
    })
  })

  it("a bad request (400), a bad key (401) and a forbidden model (403) name the failure", async () => {
    const unknown = await chat(chatBody({ model: "test/nope" }))
    expect(requestLine(unknown.correlationId)).toMatchObject({ status: 400, outcome: "UnknownModel", model: null })
    const unauthenticated = await chat(chatBody(), "pk_not_a_real_key_000000000000000000000000")
    expect(requestLine(unauthenticated.correlationId)).toMatchObject({
      status: 401,
      outcome: "InvalidApiKey",
      keyId: null,
      accountId: null
    })
    const forbidden = await chat(chatBody(), narrowKey.secret)
    expect(requestLine(forbidden.correlationId)).toMatchObject({
      status: 403,
      outcome: "ModelNotAllowed",
      keyId: narrowKey.id
    })
  })

  it("a provider answering 503: a warn line per attempt, then the request line with outcome ProviderUnavailable", async () => {
    const failing = { type: "error", status: 503, retryAfter: 0 } as const
    gateway.upstream.enqueue(failing, failing, failing)
    const { correlationId, status } = await chat(chatBody())
    expect(status).toBe(503)
    const warnings = entries().filter((entry) =>
      entry.msg === "provider failure" && entry.correlationId === correlationId
    )
    expect(warnings.map((entry) => [entry.level, entry.provider, entry.model, entry.status, entry.attempt])).toEqual([
      ["warn", "test", "m1", 503, 1],
      ["warn", "test", "m1", 503, 2],
      ["warn", "test", "m1", 503, 3]
    ])
    expect(requestLine(correlationId)).toMatchObject({ status: 503, outcome: "ProviderUnavailable", model: "test/m1" })
  })

  it("routed requests log too, with the route's path and no key outside /api/", async () => {
    const models = await fetch(`${gateway.url}/api/v1/models`, {
      headers: { ...bearer(key.secret), "x-correlation-id": "routed-models" }
    })
    expect(models.status).toBe(200)
    expect(requestLine("routed-models")).toMatchObject({
      method: "GET",
      path: "/api/v1/models",
      status: 200,
      keyId: key.id,
      outcome: "ok"
    })
    const metrics = await fetch(`${gateway.url}/metrics?x=1`, {
      headers: { ...bearer(ADMIN_TOKEN), "x-correlation-id": "routed-metrics" }
    })
    expect(metrics.status).toBe(200)
    expect(requestLine("routed-metrics")).toMatchObject({ path: "/metrics", status: 200, keyId: null })
  })

  it("no line holds a secret: API keys, the provider key, tool context tokens, the admin and metrics tokens", () => {
    const all = lines.join("\n")
    expect(lines.length).toBeGreaterThan(8)
    for (const secret of [key.secret, narrowKey.secret, UPSTREAM_API_KEY, PARTNER_TOKEN, WEBHOOK_SECRET, ADMIN_TOKEN]) {
      expect(all).not.toContain(secret)
    }
    expect(all).not.toContain(METRICS_TOKEN)
    expect(all.toLowerCase()).not.toContain("bearer")
    // Nor the conversation: what the user and the model said.
    expect(all).not.toContain("Hello there")
    expect(all).not.toContain("Hello back")
  })
})
