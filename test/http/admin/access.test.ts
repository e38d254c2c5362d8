import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bearer } from "../../support/http.ts"
import { ADMIN_TOKEN, type AdminWorld, expectError, startAdminWorld } from "./adminClient.ts"

let world: AdminWorld
let keyOfA: string
let sandboxOfA: string

beforeAll(async () => {
  world = await startAdminWorld()
  const created = await world.call("a", "POST", "/admin/v1/keys", {
    body: { name: "ana-bot", allowedModels: ["test/m1"], allowedTools: [] }
  })
  expect(created.status).toBe(201)
  keyOfA = created.body.data.key.id
  const sandbox = await fetch(`${world.gateway.url}/api/v1/sandboxes`, {
    method: "POST",
    headers: bearer(created.body.data.secret)
  })
  expect(sandbox.status).toBe(201)
  sandboxOfA = (await sandbox.json()).data.sandbox.id
}, 60_000)
afterAll(() => world.gateway.close())

/** Every admin route but sign-in, with a body where it takes one. */
const routes = (): ReadonlyArray<readonly [string, string, unknown?]> => [
  ["DELETE", "/admin/v1/session"],
  ["GET", "/admin/v1/accounts"],
  ["POST", "/admin/v1/accounts", { name: "x", email: "x@example.com", allowedModels: [], allowedTools: [] }],
  ["GET", `/admin/v1/accounts/${world.sessions.a.accountId}`],
  ["PATCH", `/admin/v1/accounts/${world.sessions.a.accountId}`, { name: "ana" }],
  ["GET", "/admin/v1/keys"],
  ["POST", "/admin/v1/keys", { name: "k", allowedModels: [], allowedTools: [] }],
  ["GET", `/admin/v1/keys/${keyOfA}`],
  ["PATCH", `/admin/v1/keys/${keyOfA}`, { name: "renamed" }],
  ["POST", `/admin/v1/keys/${keyOfA}/activate`],
  ["POST", `/admin/v1/keys/${keyOfA}/deactivate`],
  ["POST", `/admin/v1/keys/${keyOfA}/revoke`],
  ["POST", `/admin/v1/keys/${keyOfA}/rotate`, {}],
  ["GET", `/admin/v1/keys/${keyOfA}/runs`],
  ["POST", `/admin/v1/keys/${keyOfA}/runs/chat-1/stop`],
  ["GET", `/admin/v1/keys/${keyOfA}/runs/chat-1/stream`],
  ["GET", "/admin/v1/usage"],
  ["GET", "/admin/v1/requests"],
  ["GET", "/admin/v1/requests/any-correlation-id"],
  ["GET", "/admin/v1/mcp-servers"],
  ["POST", "/admin/v1/mcp-servers", { id: "docs", url: "http://127.0.0.1:9/mcp" }],
  ["GET", "/admin/v1/mcp-servers/docs"],
  ["PATCH", "/admin/v1/mcp-servers/docs", { enabled: false }],
  ["DELETE", "/admin/v1/mcp-servers/docs"],
  ["POST", "/admin/v1/mcp-servers/docs/refresh"],
  ["GET", "/admin/v1/sandboxes"],
  ["DELETE", `/admin/v1/sandboxes/${sandboxOfA}`]
]

describe("admin API access (docs/DESIGN.md §6)", () => {
  it("answers 401 on every route without credentials, with a wrong token, or with an API key", async () => {
    const apiKey = await world.gateway.createKey()
    for (const [method, path, body] of routes()) {
      expectError(await world.call("none", method, path, { body }), 401, "Unauthorized")
      for (const token of ["wrong-token", apiKey.secret, `${ADMIN_TOKEN}x`]) {
        expectError(await world.call("none", method, path, { body, headers: bearer(token) }), 401, "Unauthorized")
      }
    }
    // Before routing: an unknown admin path is 401 without credentials, 404 with.
    expectError(await world.call("none", "GET", "/admin/v1/nope"), 401, "Unauthorized")
    expectError(await world.call("operator", "GET", "/admin/v1/nope"), 404, "NotFound")
  })

  it("refuses a session's unsafe requests without the CSRF token, or with a wrong one (403)", async () => {
    for (const [method, path, body] of routes().filter(([method]) => method !== "GET")) {
      expectError(await world.call("a", method, path, { body, csrf: false }), 403, "Forbidden")
      expectError(await world.call("a", method, path, { body, csrf: world.sessions.b.csrfToken }), 403, "Forbidden")
    }
    expect((await world.call("a", "GET", "/admin/v1/keys", { csrf: false })).status).toBe(200)
    // Nothing changed: the key is still active under its name.
    const key = await world.call("operator", "GET", `/admin/v1/keys/${keyOfA}`)
    expect(key.body.data.key).toMatchObject({ name: "ana-bot", status: "active" })
  })

  it("keeps accounts and MCP servers to the operator: a session gets 403", async () => {
    const operatorOnly = /^\/admin\/v1\/(accounts|mcp-servers)/
    for (const [method, path, body] of routes().filter(([, path]) => operatorOnly.test(path))) {
      expectError(await world.call("a", method, path, { body }), 403, "Forbidden")
    }
  })

  it("hides another account's keys and sandboxes: 404, and listings without them", async () => {
    for (const [method, path, body] of routes().filter(([, path]) => /keys\/|sandboxes\//.test(path))) {
      expectError(await world.call("b", method, path, { body }), 404, "NotFound")
    }
    for (const path of ["/admin/v1/keys", `/admin/v1/keys?accountId=${world.sessions.a.accountId}`]) {
      const listed = await world.call("b", "GET", path)
      expect(listed.body.data.keys.map((key: { id: string }) => key.id)).not.toContain(keyOfA)
    }
    // Said for the admin API, which lists them, not for an API key's /api/v1.
    for (const [who, id] of [["b", sandboxOfA], ["operator", "sbx_000000000000000000000000"]] as const) {
      const gone = await world.call(who, "DELETE", `/admin/v1/sandboxes/${id}`)
      expect(gone.body.message).toBe(`No sandbox ${id}. GET /admin/v1/sandboxes lists them.`)
    }
    const sandboxes = await world.call("b", "GET", `/admin/v1/sandboxes?accountId=${world.sessions.a.accountId}`)
    expect(sandboxes.body.data.sandboxes).toEqual([])
    const key = await world.call("b", "POST", "/admin/v1/keys", {
      body: { name: "k", allowedModels: [], allowedTools: [], accountId: world.sessions.a.accountId }
    })
    expectError(key, 404, "NotFound")
  })

  it("lets the owning account and the operator see and change them", async () => {
    expect((await world.call("a", "GET", `/admin/v1/keys/${keyOfA}`)).body.data.key.accountId).toBe(
      world.sessions.a.accountId
    )
    const mine = await world.call("a", "GET", "/admin/v1/sandboxes")
    expect(mine.body.data.sandboxes).toEqual([
      expect.objectContaining({ id: sandboxOfA, accountId: world.sessions.a.accountId, keyId: keyOfA })
    ])
    const all = await world.call("operator", "GET", "/admin/v1/keys")
    expect(all.body.data.keys.map((key: { id: string }) => key.id)).toContain(keyOfA)
    const ofA = await world.call("operator", "GET", `/admin/v1/keys?accountId=${world.sessions.a.accountId}`)
    expect(ofA.body.data.keys.map((key: { id: string }) => key.id)).toEqual([keyOfA])
    const accounts = await world.call("operator", "GET", "/admin/v1/accounts")
    expect(accounts.body.data.accounts.map((account: { id: string }) => account.id)).toContain("default")
    const renamed = await world.call("a", "PATCH", `/admin/v1/keys/${keyOfA}`, { body: { name: "ana-renamed" } })
    expect(renamed.body.data.key.name).toBe("ana-renamed")
    expect((await world.call("a", "DELETE", `/admin/v1/sandboxes/${sandboxOfA}`)).body.data).toEqual({
      id: sandboxOfA,
      deleted: true
    })
    expect((await world.call("a", "GET", "/admin/v1/sandboxes")).body.data.sandboxes).toEqual([])
  })

  it("signs in with an HttpOnly, SameSite=Strict cookie (Secure behind HTTPS) and signs out for good", async () => {
    const signIn = (headers: Record<string, string> = {}) =>
      fetch(`${world.gateway.url}/admin/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ email: "ANA@example.com ", password: "correct horse battery" })
      })
    const plain = await signIn()
    expect(plain.status).toBe(200)
    const cookie = plain.headers.get("set-cookie")!
    expect(cookie).toMatch(/^parley_session=[\w-]{40,}; Path=\/admin; HttpOnly; SameSite=Strict; Max-Age=43200$/)
    const body = await plain.json()
    expect(body.data.account).toMatchObject({ id: world.sessions.a.accountId, email: "ana@example.com" })
    expect(JSON.stringify(body)).not.toMatch(/password|scrypt/i)
    expect((await signIn({ "x-forwarded-proto": "https" })).headers.get("set-cookie")).toMatch(/; Secure$/)

    const session = { cookie: cookie.split(";", 1)[0]!, csrf: body.data.csrfToken as string }
    const out = await fetch(`${world.gateway.url}/admin/v1/session`, {
      method: "DELETE",
      headers: { cookie: session.cookie, "x-csrf-token": session.csrf }
    })
    expect(out.status).toBe(200)
    expect(out.headers.get("set-cookie")).toMatch(/^parley_session=; .*Max-Age=0/)
    const after = await fetch(`${world.gateway.url}/admin/v1/keys`, { headers: { cookie: session.cookie } })
    expect(after.status).toBe(401)
  })

  it("refuses a wrong password or an unknown email alike, and slows repeated failures", async () => {
    const attempt = (email: string, password: string) =>
      world.call("none", "POST", "/admin/v1/session", { body: { email, password } })
    const wrong = await attempt("bo@example.com", "not the password")
    expectError(wrong, 401, "Unauthorized")
    expect(wrong.body.message).toBe("Invalid email or password")
    expect((await attempt("nobody@example.com", "whatever1")).body.message).toBe("Invalid email or password")
    await attempt("bo@example.com", "not the password")
    await attempt("bo@example.com", "not the password")
    // Three failures for this email: the next attempt waits, even with the right password.
    const started = Date.now()
    expect((await attempt("bo@example.com", "another long password")).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(450)
  })
})
