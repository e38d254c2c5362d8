import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer } from "../../support/http.ts"
import { httpServerEntry, type RunningServer, startEverythingHttp } from "../../support/mcp/everything.ts"
import { makeTestTool } from "../../support/tools.ts"
import { ADMIN_TOKEN } from "./adminClient.ts"

/** MCP servers' tools in the admin catalog and in allow-lists (docs/DESIGN.md §6, §9), against the reference server. */
let everything: RunningServer
let gateway: TestGateway

beforeAll(async () => {
  everything = await startEverythingHttp()
  gateway = await startGateway({
    tools: [makeTestTool({ name: "lookup", category: "business" })],
    config: {
      adminToken: Redacted.make(ADMIN_TOKEN),
      mcpServers: [
        httpServerEntry("everything", everything.url),
        // Registered, but nothing answers there: its tools cannot be listed.
        httpServerEntry("gone", "http://127.0.0.1:9/mcp")
      ]
    }
  })
}, 30_000)
afterAll(async () => {
  await gateway?.close()
  await everything?.close()
})

const call = async (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = bearer(ADMIN_TOKEN)
) => {
  const response = await fetch(`${gateway.url}/admin/v1${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() }
}

interface Entry {
  readonly name: string
  readonly category: string
  readonly server?: string
}

describe("MCP tools in the admin catalog", { timeout: 30_000 }, () => {
  it("offers each server's <server>__* and the tools it lists, category mcp, after the built-in tools", async () => {
    const { status, body } = await call("GET", "/catalog")
    expect(status).toBe(200)
    const tools: ReadonlyArray<Entry> = body.data.tools
    expect(tools.find((tool) => tool.name === "lookup")).toMatchObject({ category: "business" })
    expect(tools.find((tool) => tool.name === "lookup")?.server).toBeUndefined()
    const mine = tools.filter((tool) => tool.server === "everything")
    expect(mine[0]).toMatchObject({ name: "everything__*", category: "mcp" })
    expect(mine.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["everything__echo", "everything__get-tiny-image"])
    )
    expect(mine.every((tool) => tool.category === "mcp" && tool.name.startsWith("everything__"))).toBe(true)
    // The unreachable server offers its pattern alone.
    expect(tools.filter((tool) => tool.server === "gone").map((tool) => tool.name)).toEqual(["gone__*"])
    expect(tools.findIndex((tool) => tool.category === "mcp")).toBeGreaterThan(
      tools.findIndex((tool) => tool.name === "lookup")
    )
  })

  it("takes MCP names and patterns in allow-lists and approvals; refuses unknown servers and tools", async () => {
    const created = await call("POST", "/keys", {
      name: "mcp-key",
      allowedModels: ["test/m1"],
      allowedTools: ["everything__*", "gone__anything"],
      approvalRequired: ["everything__echo"]
    })
    expect(created.status).toBe(201)
    expect(created.body.data.key).toMatchObject({
      allowedTools: ["everything__*", "gone__anything"],
      approvalRequired: ["everything__echo"]
    })
    const tools = await fetch(`${gateway.url}/api/v1/tools`, { headers: bearer(created.body.data.secret) })
    expect((await tools.json()).data.tools.map((tool: { name: string }) => tool.name)).toContain("everything__echo")

    const refused = await call("PATCH", `/keys/${created.body.data.key.id}`, {
      allowedTools: ["everything__nope", "nope__echo", "nope__*", "everything__echo"],
      approvalRequired: ["everything_*"]
    })
    expect(refused.status).toBe(400)
    expect(refused.body.details.tools).toEqual(["everything__nope", "nope__echo", "nope__*", "everything_*"])
  })

  it("offers a session only the MCP entries its account admits", async () => {
    const password = "a long enough password"
    const made = await call("POST", "/accounts", {
      name: "mcp-only",
      email: "mcp@example.com",
      password,
      allowedModels: ["*"],
      allowedTools: ["everything__*"]
    })
    expect(made.status).toBe(201)
    const signedIn = await fetch(`${gateway.url}/admin/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "mcp@example.com", password })
    })
    const cookie = signedIn.headers.get("set-cookie")!.split(";", 1)[0]!
    const { body } = await call("GET", "/catalog", undefined, { cookie })
    const names = (body.data.tools as ReadonlyArray<Entry>).map((tool) => tool.name)
    expect(names).toContain("everything__*")
    expect(names).toContain("everything__echo")
    expect(names.every((name) => name.startsWith("everything__"))).toBe(true)
  })
})
