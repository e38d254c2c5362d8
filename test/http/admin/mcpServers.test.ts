import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { McpServerConfig } from "../../../src/config/McpServerConfig.ts"
import { bearer } from "../../support/http.ts"
import { type RunningServer, startEverythingHttp } from "../../support/mcp/everything.ts"
import { startFakeMcpServer } from "../../support/mcp/fakeServer.ts"
import { type AdminWorld, expectError, startAdminWorld } from "./adminClient.ts"

const CREDENTIAL = "Bearer mcp-admin-credential-91c4e7"

let world: AdminWorld
let everything: RunningServer
let fake: Awaited<ReturnType<typeof startFakeMcpServer>>

const fromFile = (url: string): McpServerConfig => ({
  id: "filed",
  transport: "http",
  url,
  headers: {},
  callTimeoutMs: 60_000,
  listTimeoutMs: 5_000
})

beforeAll(async () => {
  everything = await startEverythingHttp()
  fake = await startFakeMcpServer({ type: "object", properties: { word: { type: "string" } } })
  world = await startAdminWorld({ mcpServers: [fromFile(everything.url)] })
}, 60_000)
afterAll(async () => {
  await world?.gateway.close()
  await everything?.close()
  await fake?.close()
})

const servers = "/admin/v1/mcp-servers"
const operator = (method: string, path: string, body?: unknown) =>
  world.call("operator", method, path, body === undefined ? {} : { body })

/** The MCP tools the key sees in GET /api/v1/tools. */
const toolsOf = async (secret: string) => {
  const response = await fetch(`${world.gateway.url}/api/v1/tools`, { headers: bearer(secret) })
  expect(response.status).toBe(200)
  return ((await response.json()).data.tools as Array<{ name: string }>).map((tool) => tool.name)
}

describe("/admin/v1/mcp-servers (docs/DESIGN.md §9)", () => {
  it("registers an HTTP server: 201 with its tools and header names, never the values", async () => {
    const created = await operator("POST", servers, {
      id: "docs",
      url: fake.url,
      headers: { Authorization: CREDENTIAL }
    })
    expect(created.status).toBe(201)
    expect(created.body.data.server).toEqual({
      id: "docs",
      source: "api",
      transport: "http",
      url: fake.url,
      headerNames: ["Authorization"],
      enabled: true,
      status: "reachable",
      tools: [{ name: "docs__lookup", heldBack: false }]
    })
    // The server was sent the credential…
    expect(fake.headers.some((headers) => headers.authorization === CREDENTIAL)).toBe(true)
    // …which no answer ever held.
    const listed = await operator("GET", servers)
    expect(listed.status).toBe(200)
    const byId = Object.fromEntries(listed.body.data.servers.map((server: { id: string }) => [server.id, server]))
    expect(byId.docs).toEqual(created.body.data.server)
    expect(byId.filed).toMatchObject({ source: "config", url: everything.url, status: "reachable", enabled: true })
    expect(byId.filed.tools).toContainEqual({ name: "filed__echo", heldBack: false })
    expect((await operator("GET", `${servers}/docs`)).body.data.server).toEqual(created.body.data.server)
    expect(world.answers.some((answer) => answer.includes("mcp-admin-credential"))).toBe(false)
  })

  it("keeps header values encrypted at rest: the stored row does not hold them", async () => {
    const sql = world.gateway.service(SqlClient.SqlClient)
    const rows = await Effect.runPromise(sql<Record<string, unknown>>`SELECT * FROM mcp_servers WHERE id = 'docs'`)
    expect(rows).toHaveLength(1)
    const raw = JSON.stringify(rows[0])
    expect(raw).toContain("Authorization")
    expect(raw).not.toContain("mcp-admin-credential")
    expect(raw).not.toContain(Buffer.from(CREDENTIAL).toString("base64"))
    const [header] = JSON.parse(rows[0]!.headers as string)
    expect(header.value).toMatch(/^v1\./)
  })

  it("leaves a server unused while its header values do not open (PARLEY_SECRET_KEY changed), until they are set again", async () => {
    expect((await operator("POST", servers, { id: "sealed", url: fake.url, headers: { "X-Key": "k-1" } })).status)
      .toBe(201)
    const { secret } = await world.gateway.createKey({ tools: ["sealed__*"] })
    expect(await toolsOf(secret)).toEqual(["sealed__lookup"])
    // The name is part of what the value is bound to: under another name it no longer opens.
    const sql = world.gateway.service(SqlClient.SqlClient)
    await Effect.runPromise(
      sql`UPDATE mcp_servers SET headers = replace(headers, 'X-Key', 'X-Other') WHERE id = 'sealed'`
    )

    const refreshed = await operator("POST", `${servers}/sealed/refresh`)
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.data.server).toMatchObject({ status: "unreachable", headerNames: ["X-Other"], tools: [] })
    expect(refreshed.body.data.server.reason).toContain("PARLEY_SECRET_KEY")
    expect(await toolsOf(secret)).toEqual([])

    const fixed = await operator("PATCH", `${servers}/sealed`, { headers: { "X-Key": "k-2" } })
    expect(fixed.body.data.server).toMatchObject({ status: "reachable", headerNames: ["X-Key"] })
    expect(await toolsOf(secret)).toEqual(["sealed__lookup"])
    expect(fake.headers.at(-1)?.["x-key"]).toBe("k-2")
    expect((await operator("DELETE", `${servers}/sealed`)).status).toBe(200)
  })

  it("refuses bad ids, stdio servers, bad URLs and headers (400) and a taken id (409)", async () => {
    for (const id of ["Docs", "a_b", "x".repeat(33), "", "dots.not"]) {
      expectError(await operator("POST", servers, { id, url: fake.url }), 400, "BadRequest")
    }
    const stdio = await operator("POST", servers, { id: "local", command: "node", args: ["server.js"] })
    expectError(stdio, 400, "BadRequest")
    expect(stdio.body.details.error).toContain("config file")
    expectError(await operator("PATCH", `${servers}/docs`, { command: "node" }), 400, "BadRequest")
    expectError(await operator("POST", servers, { id: "ftp", url: "ftp://example.com/mcp" }), 400, "BadRequest")
    expectError(
      await operator("POST", servers, { id: "bad-header", url: fake.url, headers: { "Bad Name": "x" } }),
      400,
      "BadRequest"
    )
    expectError(
      await operator("POST", servers, { id: "bad-value", url: fake.url, headers: { "X-Key": "a\r\nInjected: 1" } }),
      400,
      "BadRequest"
    )
    expectError(await operator("POST", servers, { id: "extra", url: fake.url, nope: 1 }), 400, "BadRequest")

    const taken = await operator("POST", servers, { id: "docs", url: everything.url })
    expectError(taken, 409, "Conflict")
    expect(taken.body.details).toMatchObject({ serverId: "docs", source: "api" })
    const filed = await operator("POST", servers, { id: "filed", url: everything.url })
    expectError(filed, 409, "Conflict")
    expect(filed.body.details).toMatchObject({ serverId: "filed", source: "config" })
  })

  it("keeps config-file servers read-only (409), and answers 404 for an unknown id", async () => {
    for (const [method, body] of [["PATCH", { enabled: false }], ["DELETE", undefined]] as const) {
      const refused = await operator(method, `${servers}/filed`, body)
      expectError(refused, 409, "Conflict")
      expect(refused.body.message).toContain("config file")
    }
    const refreshed = await operator("POST", `${servers}/filed/refresh`)
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.data.server).toMatchObject({ id: "filed", status: "reachable" })

    for (
      const [method, path, body] of [
        ["GET", "/nope", undefined],
        ["PATCH", "/nope", { enabled: false }],
        ["DELETE", "/nope", undefined],
        ["POST", "/nope/refresh", undefined]
      ] as const
    ) {
      const missing = await operator(method, `${servers}${path}`, body)
      expectError(missing, 404, "NotFound")
      expect(missing.body.details).toEqual({ serverId: "nope" })
    }
  })

  it("keeps the routes to the operator: a console session gets 403", async () => {
    for (
      const [method, path, body] of [
        ["GET", servers, undefined],
        ["POST", servers, { id: "mine", url: fake.url }],
        ["GET", `${servers}/docs`, undefined],
        ["PATCH", `${servers}/docs`, { enabled: false }],
        ["DELETE", `${servers}/docs`, undefined],
        ["POST", `${servers}/docs/refresh`, undefined]
      ] as const
    ) {
      expectError(await world.call("a", method, path, body === undefined ? {} : { body }), 403, "Forbidden")
    }
    expect((await operator("GET", `${servers}/docs`)).body.data.server.enabled).toBe(true)
    expectError(await operator("GET", `${servers}/mine`), 404, "NotFound")
  })

  it("offers a new server's tools in /tools right after POST, and no longer when disabled or deleted", async () => {
    const { secret } = await world.gateway.createKey({ tools: ["news__*"] })
    expect(await toolsOf(secret)).toEqual([])
    expect((await operator("POST", servers, { id: "news", url: everything.url })).status).toBe(201)
    expect(await toolsOf(secret)).toContain("news__echo")

    const disabled = await operator("PATCH", `${servers}/news`, { enabled: false })
    expect(disabled.body.data.server).toMatchObject({ enabled: false, status: "disabled", tools: [] })
    expect(await toolsOf(secret)).toEqual([])
    expect((await operator("PATCH", `${servers}/news`, { enabled: true })).status).toBe(200)
    expect(await toolsOf(secret)).toContain("news__echo")

    const deleted = await operator("DELETE", `${servers}/news`)
    expect(deleted.status).toBe(200)
    expect(deleted.body.data).toEqual({ id: "news", deleted: true })
    expect(await toolsOf(secret)).toEqual([])
    expectError(await operator("GET", `${servers}/news`), 404, "NotFound")
  })

  it("lets a key's allow-list name a registered server's tools", async () => {
    const created = await operator("POST", "/admin/v1/keys", {
      name: "docs reader",
      allowedModels: [],
      allowedTools: ["docs__*", "docs__lookup"]
    })
    expect(created.status).toBe(201)
    const unknown = await operator("POST", "/admin/v1/keys", { name: "x", allowedModels: [], allowedTools: ["zz__*"] })
    expectError(unknown, 400, "BadRequest")
  })

  it("shows a server that is down as unreachable, with why, without failing", async () => {
    const created = await operator("POST", servers, { id: "down", url: "http://127.0.0.1:9/mcp" })
    expect(created.status).toBe(201)
    expect(created.body.data.server).toMatchObject({ id: "down", status: "unreachable", tools: [] })
    expect(created.body.data.server.reason).toEqual(expect.any(String))
    expect((await operator("GET", servers)).status).toBe(200)
    expect((await operator("DELETE", `${servers}/down`)).status).toBe(200)
  })

  it("holds back a tool whose input schema changed until the operator refreshes the server", async () => {
    const { secret } = await world.gateway.createKey({ tools: ["docs__*"] })
    expect(await toolsOf(secret)).toEqual(["docs__lookup"])
    fake.schema = { type: "object", properties: { word: { type: "string" }, language: { type: "string" } } }
    const held = await operator("GET", `${servers}/docs`)
    expect(held.body.data.server.tools).toEqual([{ name: "docs__lookup", heldBack: true }])
    expect(await toolsOf(secret)).toEqual([])

    const refreshed = await operator("POST", `${servers}/docs/refresh`)
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.data.server.tools).toEqual([{ name: "docs__lookup", heldBack: false }])
    expect(await toolsOf(secret)).toEqual(["docs__lookup"])
    // The refresh reconnected with the stored credential.
    expect(fake.headers.at(-1)?.authorization).toBe(CREDENTIAL)
  })
})
