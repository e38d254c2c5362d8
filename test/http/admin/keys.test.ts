import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { bearer } from "../../support/http.ts"
import { type AdminWorld, expectError, startAdminWorld, within } from "./adminClient.ts"

let world: AdminWorld
const secrets: Array<string> = []
const logged: Array<string> = []

beforeAll(async () => {
  // Everything the process writes, to check that no secret reaches a log.
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream)
    vi.spyOn(stream, "write").mockImplementation((chunk: any, ...rest: Array<any>) => {
      logged.push(String(chunk))
      return write(chunk, ...rest)
    })
  }
  world = await startAdminWorld()
}, 60_000)
afterAll(async () => {
  vi.restoreAllMocks()
  await world.gateway.close()
})

const models = async (secret: string) => {
  const response = await fetch(`${world.gateway.url}/api/v1/models`, { headers: bearer(secret) })
  return response.status === 200
    ? (await response.json()).data.models.map((model: { id: string }) => model.id)
    : response.status
}

const createKey = async (caller: "a" | "b" | "operator", body: Record<string, unknown>) => {
  const created = await world.call(caller, "POST", "/admin/v1/keys", {
    body: { name: "k", allowedModels: ["*"], allowedTools: [], ...body }
  })
  expect(created.status).toBe(201)
  secrets.push(created.body.data.secret)
  return {
    id: created.body.data.key.id as string,
    secret: created.body.data.secret as string,
    key: created.body.data.key
  }
}

describe("keys through the admin API (docs/DESIGN.md §6)", () => {
  it("creates a key whose secret is answered once and whose allow-lists narrow to the account's", async () => {
    const { id, key, secret } = await createKey("a", { allowedModels: ["test/m1"] })
    expect(secret).toMatch(/^pk_/)
    expect(key).toMatchObject({ accountId: world.sessions.a.accountId, status: "active", prefix: secret.slice(0, 12) })
    expect(JSON.stringify((await world.call("a", "GET", `/admin/v1/keys/${id}`)).body)).not.toContain(secret)
    expect(await models(secret)).toEqual(["test/m1"])
    // The operator gives a key of account a every model: a's bound still holds.
    const wide = await createKey("operator", { accountId: world.sessions.a.accountId, allowedModels: [] })
    expect(await models(wide.secret)).toEqual([])
    const edited = await world.call("operator", "PATCH", `/admin/v1/keys/${wide.id}`, {
      body: { allowedModels: ["test/m1"] }
    })
    expect(edited.body.data.key.allowedModels).toEqual(["test/m1"])
    expect(await within(5_000, async () => (await models(wide.secret)).length === 1)).toBe(true)
  })

  it("refuses entries outside the catalog (400, listed) and wider than the account (403)", async () => {
    const unknown = await world.call("b", "POST", "/admin/v1/keys", {
      body: { name: "k", allowedModels: ["test/m9", "nope/*", "test/*"], allowedTools: ["nope"] }
    })
    expectError(unknown, 400, "BadRequest")
    expect(unknown.body.details).toMatchObject({ models: ["test/m9", "nope/*"], tools: ["nope"] })
    const wider = await world.call("a", "POST", "/admin/v1/keys", {
      body: { name: "k", allowedModels: ["test/*"], allowedTools: [] }
    })
    expectError(wider, 403, "Forbidden")
    expect(wider.body.details.models).toEqual(["test/*"])
    const { id } = await createKey("a", { allowedModels: ["test/m1"] })
    expectError(
      await world.call("a", "PATCH", `/admin/v1/keys/${id}`, { body: { allowedModels: ["test/m2"] } }),
      403,
      "Forbidden"
    )
    expect((await world.call("a", "GET", `/admin/v1/keys/${id}`)).body.data.key.allowedModels).toEqual(["test/m1"])
  })

  it("answers bad input with 400 in the spec's error body and changes nothing", async () => {
    const { id } = await createKey("b", {})
    const bad: ReadonlyArray<readonly [string, string, unknown]> = [
      ["POST", "/admin/v1/keys", { name: "", allowedModels: [], allowedTools: [] }],
      ["POST", "/admin/v1/keys", { name: "k", allowedModels: "*", allowedTools: [] }],
      ["POST", "/admin/v1/keys", { name: "k", allowedModels: [], allowedTools: [], colour: "red" }],
      ["POST", "/admin/v1/keys", { name: "k", allowedModels: [], allowedTools: [], expiresAt: "2001-01-01T00:00:00Z" }],
      ["PATCH", `/admin/v1/keys/${id}`, { expiresAt: "tomorrow" }],
      ["PATCH", `/admin/v1/keys/${id}`, { name: 7 }],
      ["POST", `/admin/v1/keys/${id}/rotate`, { graceSeconds: 40 * 86_400 }],
      ["POST", `/admin/v1/keys/${id}/rotate`, { graceSeconds: -1 }]
    ]
    const before = (await world.call("b", "GET", "/admin/v1/keys")).body
    for (const [method, path, body] of bad) {
      expectError(await world.call("b", method, path, { body }), 400, "BadRequest")
    }
    expectError(
      await world.call("operator", "POST", "/admin/v1/accounts", {
        body: { name: "x", email: "not-an-email", allowedModels: [], allowedTools: [] }
      }),
      400,
      "BadRequest"
    )
    const malformed = await fetch(`${world.gateway.url}/admin/v1/keys`, {
      method: "POST",
      headers: { cookie: world.sessions.b.cookie, "x-csrf-token": world.sessions.b.csrfToken },
      body: "{not json"
    })
    expect(malformed.status).toBe(400)
    expect((await world.call("b", "GET", "/admin/v1/keys")).body).toEqual(before)
    const taken = await world.call("operator", "POST", "/admin/v1/accounts", {
      body: { name: "again", email: "ana@example.com", allowedModels: [], allowedTools: [] }
    })
    expectError(taken, 409, "Conflict")
  })

  it("rotates with a grace: both secrets work during it, the old one is refused after", async () => {
    const old = await createKey("b", {})
    const rotated = await world.call("b", "POST", `/admin/v1/keys/${old.id}/rotate`, { body: { graceSeconds: 2 } })
    expect(rotated.status).toBe(200)
    const fresh = rotated.body.data.secret as string
    secrets.push(fresh)
    expect(rotated.body.data.key.id).toBe(old.id)
    expect(await models(fresh)).toEqual(["test/m1", "test/m2"])
    expect(await models(old.secret)).toEqual(["test/m1", "test/m2"])
    expect(await within(5_000, async () => (await models(old.secret)) === 401)).toBe(true)
    expect(await models(fresh)).toEqual(["test/m1", "test/m2"])
    // Without a body the grace is a day.
    const again = await world.call("b", "POST", `/admin/v1/keys/${old.id}/rotate`)
    secrets.push(again.body.data.secret)
    expect(await models(fresh)).toEqual(["test/m1", "test/m2"])
  })

  it("deactivates and activates; revocation is refused at /api/v1 within 5 s and is final", async () => {
    const { id, secret } = await createKey("b", {})
    expect((await world.call("b", "POST", `/admin/v1/keys/${id}/deactivate`)).body.data.key.status).toBe("inactive")
    expect(await within(5_000, async () => (await models(secret)) === 401)).toBe(true)
    expect((await world.call("b", "POST", `/admin/v1/keys/${id}/activate`)).body.data.key.status).toBe("active")
    expect(await within(5_000, async () => Array.isArray(await models(secret)))).toBe(true)
    const revokedAt = Date.now()
    expect((await world.call("b", "POST", `/admin/v1/keys/${id}/revoke`)).body.data.key.status).toBe("revoked")
    expect(await within(5_000, async () => (await models(secret)) === 401)).toBe(true)
    expect(Date.now() - revokedAt).toBeLessThan(5_000)
    for (const action of ["activate", "deactivate", "rotate"]) {
      expectError(await world.call("b", "POST", `/admin/v1/keys/${id}/${action}`), 409, "Conflict")
    }
    expect(await models(secret)).toBe(401)
  })

  it("expires keys at expiresAt", async () => {
    const { id, secret } = await createKey("b", {})
    const soon = new Date(Date.now() + 1_500).toISOString()
    const set = await world.call("b", "PATCH", `/admin/v1/keys/${id}`, { body: { expiresAt: soon } })
    expect(set.body.data.key.expiresAt).toBe(soon)
    expect(await within(5_000, async () => (await models(secret)) === 401)).toBe(true)
  })

  it("refuses a disabled account's keys and sessions, and admits them again when enabled", async () => {
    const { secret } = await createKey("b", {})
    const account = `/admin/v1/accounts/${world.sessions.b.accountId}`
    expect((await world.call("operator", "PATCH", account, { body: { status: "disabled" } })).status).toBe(200)
    expect(await within(5_000, async () => (await models(secret)) === 401)).toBe(true)
    expectError(await world.call("b", "GET", "/admin/v1/keys"), 401, "Unauthorized")
    expect((await world.call("operator", "PATCH", account, { body: { status: "active" } })).status).toBe(200)
    expect(await within(5_000, async () => Array.isArray(await models(secret)))).toBe(true)
    expect((await world.call("b", "GET", "/admin/v1/keys")).status).toBe(200)
  })

  it("never shows a secret or its hash in an answer or a log", () => {
    expect(secrets.length).toBeGreaterThan(5)
    const listings = world.answers.filter((text) => !text.includes("\"secret\""))
    for (const secret of secrets) {
      const hash = createHash("sha256").update(secret).digest("hex")
      for (const text of listings) expect(text).not.toContain(secret)
      for (const text of [...world.answers, ...logged]) expect(text).not.toContain(hash)
      for (const text of logged) expect(text).not.toContain(secret)
    }
    for (const text of world.answers) expect(text).not.toMatch(/scrypt\$|secret_hash|secretHash|password/i)
  })
})
