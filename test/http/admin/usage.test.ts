import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { UsageEvent } from "../../../src/domain/UsageEvent.ts"
import { UPSTREAM_API_KEY } from "../../support/gateway.ts"
import { bearer, chatBody, postJson } from "../../support/http.ts"
import { ADMIN_TOKEN, type AdminWorld, expectError, startAdminWorld } from "./adminClient.ts"

let world: AdminWorld
const keys = { a: { id: "", secret: "" }, b: { id: "", secret: "" } }
/** The ledger's rows after the chats, newest first. */
let rows: Array<UsageEvent>
/** Where the answers of this file's reads begin (the keys' creation shows their secrets, as it must). */
let firstRead = 0

const PROMPT = "Tell me about the quarterly plan"
const REPLY = "Here is the quarterly plan"

/** A chat; the upstream answers with `usage` (none is scripted for a chat that is refused first). */
const chat = async (secret: string, model: string, usage?: { promptTokens: number; completionTokens: number }) => {
  if (usage !== undefined) world.gateway.upstream.enqueue({ type: "text", text: REPLY, usage })
  const response = await postJson(
    `${world.gateway.url}/api/v1/chat`,
    chatBody({ model, messages: [{ role: "user", content: PROMPT }] }),
    bearer(secret)
  )
  await response.text()
  // Rows a few milliseconds apart, so that a time cursor splits pages between them.
  await new Promise((resolve) => setTimeout(resolve, 5))
  return response.status
}

beforeAll(async () => {
  world = await startAdminWorld()
  for (const caller of ["a", "b"] as const) {
    const created = await world.call(caller, "POST", "/admin/v1/keys", {
      body: { name: `${caller}-bot`, allowedModels: caller === "a" ? ["test/m1"] : ["*"], allowedTools: [] }
    })
    expect(created.status).toBe(201)
    keys[caller] = { id: created.body.data.key.id, secret: created.body.data.secret }
  }
  firstRead = world.answers.length
  expect(await chat(keys.a.secret, "test/m1", { promptTokens: 10, completionTokens: 2 })).toBe(200)
  expect(await chat(keys.a.secret, "test/m1", { promptTokens: 20, completionTokens: 4 })).toBe(200)
  // Key a allows only test/m1: refused after authentication, a `rejected` row that counts as an error.
  expect(await chat(keys.a.secret, "test/m2")).toBe(403)
  expect(await chat(keys.b.secret, "test/m1", { promptTokens: 5, completionTokens: 1 })).toBe(200)
  expect(await chat(keys.b.secret, "test/m2", { promptTokens: 7, completionTokens: 3 })).toBe(200)
  rows = await world.gateway.ledgerRows()
  expect(rows).toHaveLength(5)
}, 60_000)
afterAll(() => world.gateway.close())

type Sums = Record<string, number | null>

/** The rows summed per group, as §6's usage answer states them. */
const sumsOf = (group: (row: UsageEvent) => string, of: ReadonlyArray<UsageEvent> = rows) => {
  const sums = new Map<string, Sums>()
  for (const row of of) {
    const sum = sums.get(group(row)) ?? {
      requests: 0,
      errors: 0,
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      reasoningTokens: 0,
      cachedInputTokens: 0,
      toolCalls: 0,
      costUsd: null
    }
    const add = (field: string, value: number | null) => (sum[field] = (sum[field] ?? 0) + (value ?? 0))
    add("requests", 1)
    add("errors", row.outcome === "error" || row.outcome === "rejected" ? 1 : 0)
    add("inputTokens", row.inputTokens)
    add("outputTokens", row.outputTokens)
    add("totalTokens", row.totalTokens)
    add("reasoningTokens", row.reasoningTokens)
    add("cachedInputTokens", row.cachedInputTokens)
    add("toolCalls", Object.values(row.toolCalls).reduce((total, count) => total + count, 0))
    sums.set(group(row), sum)
  }
  // Sorted by group, as the query orders them.
  return new Map([...sums].sort(([a], [b]) => a < b ? -1 : 1))
}

const usage = async (caller: "operator" | "a" | "b", query: string) => {
  const answer = await world.call(caller, "GET", `/admin/v1/usage?${query}`)
  expect(answer.status).toBe(200)
  expect(answer.body.success).toBe(true)
  return answer.body.data.rows as Array<Sums & { bucket: string; keyId?: string; model?: string }>
}

/** Every page of requests the caller sees, `limit` at a time, following the time cursor. */
const allPages = async (caller: "operator" | "a" | "b", limit: number, query = "") => {
  const pages: Array<Array<{ correlationId: string; time: string }>> = []
  let before: string | undefined
  for (;;) {
    const cursor = before === undefined ? "" : `&before=${encodeURIComponent(before)}`
    const answer = await world.call(caller, "GET", `/admin/v1/requests?limit=${limit}${cursor}${query}`)
    expect(answer.status).toBe(200)
    const page = answer.body.data.requests
    if (page.length === 0) return pages
    expect(page.length).toBeLessThanOrEqual(limit)
    pages.push(page)
    before = page.at(-1).time
  }
}

describe("admin usage and requests (docs/DESIGN.md §6, §7)", () => {
  it("sums the operator's usage per day, hour, model and key as the rows say", async () => {
    const hour = (row: UsageEvent) => `${row.time.toISOString().slice(0, 13)}:00:00.000Z`
    const day = (row: UsageEvent) => `${row.time.toISOString().slice(0, 10)}T00:00:00.000Z`
    for (const [groupBy, group] of [["hour", hour], ["day", day]] as const) {
      const answer = await usage("operator", `groupBy=${groupBy}`)
      expect(answer).toEqual([...sumsOf(group)].map(([bucket, sums]) => ({ bucket, ...sums })))
    }
    const byModel = await usage("operator", "groupBy=model")
    expect(byModel).toEqual(
      [...sumsOf((row) => row.model!)].map(([model, sums]) => ({ bucket: expect.any(String), model, ...sums }))
    )
    expect(byModel.find((row) => row.model === "test/m1")).toMatchObject({ requests: 3, inputTokens: 35 })
    const byKey = await usage("operator", "groupBy=key")
    expect(byKey).toHaveLength(2)
    for (const [keyId, sums] of sumsOf((row) => row.keyId)) {
      expect(byKey).toContainEqual({ bucket: expect.any(String), keyId, ...sums })
    }
    expect(byKey.find((row) => row.keyId === keys.a.id)).toMatchObject({ requests: 3, errors: 1, outputTokens: 6 })
    // groupBy defaults to day; filters narrow; a window in the past holds nothing.
    expect(await usage("operator", "")).toEqual(await usage("operator", "groupBy=day"))
    const m2 = await usage("operator", `groupBy=key&model=test/m2&accountId=${world.sessions.b.accountId}`)
    expect(m2).toEqual([expect.objectContaining({ keyId: keys.b.id, requests: 1, inputTokens: 7 })])
    expect(await usage("operator", "from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z")).toEqual([])
    const window = await usage("operator", "groupBy=key&from=2020-01-01T00:00:00Z")
    expect(window.map((row) => row.bucket)).toEqual(["2020-01-01T00:00:00.000Z", "2020-01-01T00:00:00.000Z"])
  })

  it("shows a session its own account's usage and requests only", async () => {
    const ofA = rows.filter((row) => row.keyId === keys.a.id)
    for (const query of ["groupBy=key", `groupBy=key&accountId=${world.sessions.a.accountId}`]) {
      expect(await usage("a", query)).toEqual([
        { bucket: expect.any(String), keyId: keys.a.id, ...sumsOf((row) => row.keyId, ofA).get(keys.a.id) }
      ])
    }
    expect(await usage("a", `groupBy=model&keyId=${keys.a.id}`)).toHaveLength(2)
    const mine = (await world.call("a", "GET", "/admin/v1/requests")).body.data.requests
    expect(mine.map((row: UsageEvent) => row.correlationId)).toEqual(ofA.map((row) => row.correlationId))
    const row = ofA[0]!
    const shown = await world.call("a", "GET", `/admin/v1/requests/${row.correlationId}`)
    expect(shown.status).toBe(200)
    expect(shown.body.data.request).toEqual({ ...row, time: row.time.toISOString() })
    expect(shown.body.data.request).toMatchObject({
      keyId: keys.a.id,
      protocol: "ui",
      status: 403,
      outcome: "rejected"
    })
    // The operator sees every account's rows.
    const all = (await world.call("operator", "GET", "/admin/v1/requests")).body.data.requests
    expect(all.map((row: UsageEvent) => row.correlationId)).toEqual(rows.map((row) => row.correlationId))
  })

  it("answers another account's key, account or request with 404, and an unknown one too", async () => {
    const ofB = rows.find((row) => row.keyId === keys.b.id)!
    for (
      const path of [
        `/admin/v1/usage?keyId=${keys.b.id}`,
        `/admin/v1/usage?accountId=${world.sessions.b.accountId}`,
        `/admin/v1/requests?keyId=${keys.b.id}`,
        `/admin/v1/requests/${ofB.correlationId}`
      ]
    ) expectError(await world.call("a", "GET", path), 404, "NotFound")
    expectError(await world.call("operator", "GET", "/admin/v1/requests/no-such-request"), 404, "NotFound")
    expectError(await world.call("operator", "GET", "/admin/v1/usage?keyId=key_nope"), 404, "NotFound")
    expect((await world.call("operator", "GET", `/admin/v1/requests/${ofB.correlationId}`)).status).toBe(200)
  })

  it("pages requests newest first with limit and before", async () => {
    for (const limit of [1, 2, 500]) {
      const pages = await allPages("operator", limit)
      expect(pages.flat().map((row) => row.correlationId)).toEqual(rows.map((row) => row.correlationId))
      expect(pages).toHaveLength(Math.ceil(rows.length / limit))
    }
    const ofA = await allPages("a", 2, `&keyId=${keys.a.id}`)
    expect(ofA.map((page) => page.length)).toEqual([2, 1])
    const defaultLimit = await world.call("operator", "GET", `/admin/v1/requests?before=${rows[1]!.time.toISOString()}`)
    expect(defaultLimit.body.data.requests.map((row: UsageEvent) => row.correlationId)).toEqual(
      rows.slice(2).map((row) => row.correlationId)
    )
  })

  it("answers a bad query with 400 in the spec's error body", async () => {
    for (
      const path of [
        "/admin/v1/usage?groupBy=week",
        "/admin/v1/usage?from=yesterday",
        "/admin/v1/usage?to=2024-13-45T00:00:00Z",
        "/admin/v1/usage?from=2024-02-01T00:00:00Z&to=2024-01-01T00:00:00Z",
        "/admin/v1/requests?limit=0",
        "/admin/v1/requests?limit=501",
        "/admin/v1/requests?limit=ten",
        "/admin/v1/requests?limit=2.5",
        "/admin/v1/requests?before=soon"
      ]
    ) {
      const answer = await world.call("operator", "GET", path)
      expectError(answer, 400, "BadRequest")
      expect(answer.body.details.error).toMatch(/groupBy|from|to|limit|before/)
    }
  })

  it("answers 401 without credentials or with an API key", async () => {
    const ofA = rows[0]!
    for (const path of ["/admin/v1/usage", "/admin/v1/requests", `/admin/v1/requests/${ofA.correlationId}`]) {
      expectError(await world.call("none", "GET", path), 401, "Unauthorized")
      expectError(await world.call("none", "GET", path, { headers: bearer(keys.a.secret) }), 401, "Unauthorized")
    }
  })

  it("declares the three routes in /openapi.json under the tag admin", async () => {
    const spec = await (await fetch(`${world.gateway.url}/openapi.json`)).json()
    for (const path of ["/admin/v1/usage", "/admin/v1/requests", "/admin/v1/requests/{correlationId}"]) {
      expect(spec.paths[path].get.tags).toEqual(["admin"])
    }
    const usageParameters = spec.paths["/admin/v1/usage"].get.parameters.map((p: { name: string }) => p.name)
    expect(usageParameters).toEqual(["keyId", "accountId", "model", "from", "to", "groupBy"])
  })

  // Last, as it adds a row: the others read the chats' rows only.
  it("shows each request's protocol: `ui` for the chats, `mcp` for a tools/call on /mcp", async () => {
    const call = await postJson(
      `${world.gateway.url}/mcp`,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "no_such_tool", arguments: {} } },
      { ...bearer(keys.a.secret), accept: "application/json, text/event-stream" }
    )
    expect(call.status).toBe(200)
    const correlationId = call.headers.get("x-correlation-id")!
    await call.text()
    // Its row is recorded once the call's handling has ended; the gateway's `ledgerRows` writes what is buffered.
    for (let i = 0; i < 100; i++) {
      if ((await world.gateway.ledgerRows()).some((row) => row.correlationId === correlationId)) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const answer = (await world.call("operator", "GET", `/admin/v1/requests/${correlationId}`)).body
    expect(answer.data.request).toMatchObject({ keyId: keys.a.id, protocol: "mcp", status: 200, outcome: "rejected" })
    const listed = (await world.call("a", "GET", `/admin/v1/requests?keyId=${keys.a.id}`)).body.data.requests
    expect(listed.map((row: UsageEvent) => row.protocol)).toEqual(["mcp", "ui", "ui", "ui"])
  })

  it("shows nothing of a secret or of the content in any answer", () => {
    const reads = world.answers.slice(firstRead)
    expect(reads.length).toBeGreaterThan(30)
    const hashes = [keys.a.secret, keys.b.secret].map((secret) => createHash("sha256").update(secret).digest("hex"))
    for (const text of reads) {
      for (const secret of [keys.a.secret, keys.b.secret, ...hashes, ADMIN_TOKEN, UPSTREAM_API_KEY, PROMPT, REPLY]) {
        expect(text).not.toContain(secret)
      }
      expect(text).not.toMatch(/secret_hash|secretHash|password/i)
    }
  })
})
