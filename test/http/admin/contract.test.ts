import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Api } from "../../../src/api/Api.ts"
import { SandboxProvider } from "../../../src/sandbox/SandboxProvider.ts"
import { bearer } from "../../support/http.ts"
import { ADMIN_TOKEN, type AdminWorld, startAdminWorld } from "./adminClient.ts"
import { decodeDeclared, successOf } from "./declaredSchema.ts"

// adminClient's `call` holds every successful answer to its route's declared schema; here the routes the other
// tests do not reach with success, and the sandbox list field by field.

let world: AdminWorld
let keyOfA: { readonly id: string; readonly secret: string }
let sandboxOfA: string
let operatorSandbox: string

beforeAll(async () => {
  world = await startAdminWorld()
  const created = await world.call("a", "POST", "/admin/v1/keys", {
    body: { name: "ana-bot", allowedModels: ["test/m1"], allowedTools: [] }
  })
  keyOfA = { id: created.body.data.key.id, secret: created.body.data.secret }
  const sandbox = await fetch(`${world.gateway.url}/api/v1/sandboxes`, {
    method: "POST",
    headers: { ...bearer(keyOfA.secret), "content-type": "application/json" },
    body: JSON.stringify({ desktop: true })
  })
  expect(sandbox.status).toBe(201)
  sandboxOfA = (await sandbox.json()).data.sandbox.id
  const provider = world.gateway.service(SandboxProvider)
  operatorSandbox = (await Effect.runPromise(provider.create({ ownerKeyId: null, desktop: false, network: false }))).id
}, 60_000)
afterAll(() => world.gateway.close())

describe("admin answers and the contract (/openapi.json)", () => {
  it("lists sandboxes with their account, key, backend and instance, as the route declares them", async () => {
    const response = await fetch(`${world.gateway.url}/admin/v1/sandboxes`, { headers: bearer(ADMIN_TOKEN) })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(decodeDeclared(successOf(Api.groups.admin.endpoints.listSandboxes), body)).toEqual(body)
    // The instance the key's own API names for its sandbox.
    const own = await fetch(`${world.gateway.url}/api/v1/sandboxes/${sandboxOfA}`, { headers: bearer(keyOfA.secret) })
    const { instance } = (await own.json()).data.sandbox
    expect(instance).toEqual(expect.any(String))
    expect(body.data.sandboxes).toEqual([
      {
        id: sandboxOfA,
        accountId: world.sessions.a.accountId,
        owner: "key",
        keyId: keyOfA.id,
        desktop: true,
        network: false,
        display: { width: 1024, height: 768 },
        createdAt: expect.any(String),
        backend: "local",
        instance,
        usedAt: expect.any(String)
      },
      {
        id: operatorSandbox,
        accountId: null,
        owner: "account",
        desktop: false,
        network: false,
        createdAt: expect.any(String),
        backend: "local",
        instance,
        usedAt: expect.any(String)
      }
    ])
  })

  it("answers an account and a sign-out as declared", async () => {
    const account = await world.call("operator", "GET", `/admin/v1/accounts/${world.sessions.a.accountId}`)
    expect(account.status).toBe(200)
    const signedOut = await world.call("b", "DELETE", "/admin/v1/session")
    expect(signedOut.body.data).toEqual({ signedOut: true })
  })
})
