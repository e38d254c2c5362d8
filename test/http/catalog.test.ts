import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

let gateway: TestGateway

const tools = [
  makeTestTool({
    name: "bash",
    category: "sandbox",
    requiresSandbox: true,
    promptTypes: ["generalComputerSystemPrompt"]
  }),
  makeTestTool({
    name: "jobsite_reply_generator",
    category: "business",
    requiredContext: [{ field: "configData" }, {
      field: "replyPrompts",
      schema: Schema.Record(Schema.String, Schema.String)
    }],
    promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt"]
  }),
  makeTestTool({ name: "pages", optionalSandbox: "Pages persist across requests naming the same sandbox." })
]

beforeAll(async () => {
  gateway = await startGateway({ tools })
})
afterAll(() => gateway.close())

const get = async (path: string, secret: string) => {
  const response = await fetch(`${gateway.url}/api/v1${path}`, { headers: bearer(secret) })
  return { response, body: await response.json() }
}

describe("GET /models", () => {
  it("lists only the key's allowed models, cached privately for an hour", async () => {
    const { secret } = await gateway.createKey({ models: ["test/m2"] })
    const { response, body } = await get("/models", secret)
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("private, max-age=3600")
    expect(response.headers.get("x-correlation-id")).toBeTruthy()
    expect(body).toEqual({
      success: true,
      data: { models: [{ id: "test/m2", name: "Model Two", categories: ["chat", "tools"] }] }
    })
  })

  it("expands provider wildcards and gives nothing to an empty allow-list", async () => {
    const all = await gateway.createKey({ models: ["test/*"] })
    expect((await get("/models", all.secret)).body.data.models.map((m: { id: string }) => m.id)).toEqual([
      "test/m1",
      "test/m2"
    ])
    expect((await get("/models", all.secret)).body.data.models[0].contextWindow).toBe(128_000)
    const none = await gateway.createKey({ models: [] })
    expect((await get("/models", none.secret)).body.data.models).toEqual([])
  })

  it("cannot be widened through query strings or extra headers", async () => {
    const { secret } = await gateway.createKey({ models: ["test/m2"] })
    const response = await fetch(`${gateway.url}/api/v1/models?models=*&allowedModels=*`, {
      headers: { ...bearer(secret), "x-allowed-models": "*", "x-api-key": "*" }
    })
    expect((await response.json()).data.models.map((m: { id: string }) => m.id)).toEqual(["test/m2"])
  })
})

describe("GET /tools", () => {
  it("lists the key's tools with their requirements and promptType memberships", async () => {
    const { secret } = await gateway.createKey({ tools: ["jobsite_reply_generator"] })
    const { response, body } = await get("/tools", secret)
    expect(response.headers.get("cache-control")).toBe("private, max-age=3600")
    expect(body.data.tools).toEqual([{
      name: "jobsite_reply_generator",
      description: "Test tool jobsite_reply_generator",
      category: "business",
      requiresSandbox: false,
      requiredContext: ["configData", "replyPrompts"],
      promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt"]
    }])
  })
})

describe("GET /tools, sandboxes", () => {
  it("says what an optional sandbox is for, and a sandbox tool requires one", async () => {
    const { secret } = await gateway.createKey({ tools: ["pages", "bash"] })
    const { body } = await get("/tools", secret)
    const byName = new Map(body.data.tools.map((tool: { name: string }) => [tool.name, tool]))
    expect(byName.get("pages")).toMatchObject({
      requiresSandbox: false,
      optionalSandbox: "Pages persist across requests naming the same sandbox."
    })
    expect(byName.get("bash")).toMatchObject({ requiresSandbox: true })
    expect(byName.get("bash")).not.toHaveProperty("optionalSandbox")
  })
})

describe("GET /prompt-types and /config-schema", () => {
  it("lists the three prompt types", async () => {
    const { secret } = await gateway.createKey()
    const { body } = await get("/prompt-types", secret)
    expect(body.data.promptTypes.map((p: { id: string }) => p.id)).toEqual([
      "bossJobsiteSystemPrompt",
      "bossJobsiteLocalSystemPrompt",
      "generalComputerSystemPrompt"
    ])
    for (const entry of body.data.promptTypes) expect(entry.description.length).toBeGreaterThan(10)
  })

  it("publishes schemas generated from the request schemas", async () => {
    const { secret } = await gateway.createKey()
    const { body } = await get("/config-schema", secret)
    expect(body.success).toBe(true)
    expect(body.data.sandboxId).toMatchObject({ type: "string", required: false })
    expect(body.data.toolContext).toMatchObject({ type: "object", required: false })
    const properties = JSON.stringify(body.data.context)
    for (
      const field of [
        "preferredBrand",
        "modelConfig",
        "configData",
        "systemPrompts",
        "replyPrompts",
        "partnerToken",
        "defaultMessengerId"
      ]
    ) {
      expect(properties).toContain(field)
    }
  })
})

describe("OpenAPI", () => {
  it("documents every /api/v1, /admin/v1 and /v1 endpoint", async () => {
    const document = await (await fetch(`${gateway.url}/openapi.json`)).json()
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        "/admin/v1/accounts",
        "/admin/v1/accounts/{id}",
        "/admin/v1/accounts/{id}/limits",
        "/admin/v1/catalog",
        "/admin/v1/keys",
        "/admin/v1/keys/{id}",
        "/admin/v1/keys/{id}/activate",
        "/admin/v1/keys/{id}/deactivate",
        "/admin/v1/keys/{id}/limits",
        "/admin/v1/keys/{id}/revoke",
        "/admin/v1/keys/{id}/rotate",
        "/admin/v1/keys/{id}/runs",
        "/admin/v1/keys/{id}/runs/{chatId}/stop",
        "/admin/v1/keys/{id}/runs/{chatId}/stream",
        "/admin/v1/mcp-servers",
        "/admin/v1/mcp-servers/{id}",
        "/admin/v1/mcp-servers/{id}/refresh",
        "/admin/v1/providers",
        "/admin/v1/requests",
        "/admin/v1/requests/{correlationId}",
        "/admin/v1/sandboxes",
        "/admin/v1/sandboxes/{id}",
        "/admin/v1/session",
        "/admin/v1/usage",
        "/api/v1/chat",
        "/api/v1/config-schema",
        "/api/v1/models",
        "/api/v1/prompt-types",
        "/api/v1/sandboxes",
        "/api/v1/sandboxes/{id}",
        "/api/v1/tools",
        "/health",
        "/ready",
        "/v1/chat/completions",
        "/v1/messages",
        "/v1/messages/count_tokens",
        "/v1/models",
        "/v1/models/{model}",
        "/v1/responses",
        "/v1/responses/{id}",
        "/v1/responses/{id}/cancel",
        "/v1/responses/{id}/input_items"
      ]
    )
    expect(document.info.version).toBe("1.0.0")
    // docs/DESIGN.md §6: the admin API is tagged `admin`, its secured routes name both ways in.
    expect(document.paths["/admin/v1/keys"].get.tags).toEqual(["admin"])
    expect(document.paths["/admin/v1/keys"].get.security).toEqual([{ operator: [] }, { session: [] }])
    expect(document.paths["/admin/v1/session"].post.security).toEqual([])
    // The limits' current use, open to the budgets' entries (docs/DESIGN.md §6, §11).
    const consumption = document.components.schemas.LimitsStatus.properties.consumption.properties
    expect(Object.keys(consumption)).toEqual([
      "requestsPerMinute",
      "concurrentRequests",
      "tokensPerDay",
      "costPerMonthUsd"
    ])
  })
})
