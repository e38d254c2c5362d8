import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { bearer, postJson } from "../support/http.ts"
import { createSandbox, startSandboxGateway } from "./chat.ts"

let gateway: TestGateway
let mine: string
let theirs: string

beforeAll(async () => {
  ;({ gateway } = await startSandboxGateway())
  mine = (await gateway.createKey()).secret
  theirs = (await gateway.createKey()).secret
})
afterAll(() => gateway.close())

const get = (path: string, secret: string) => fetch(`${gateway.url}/api/v1${path}`, { headers: bearer(secret) })
const remove = (path: string, secret: string) =>
  fetch(`${gateway.url}/api/v1${path}`, { method: "DELETE", headers: bearer(secret) })

describe("/api/v1/sandboxes", () => {
  it("creates sandboxes owned by the calling key", async () => {
    const response = await postJson(`${gateway.url}/api/v1/sandboxes`, "", bearer(mine))
    expect(response.status).toBe(201)
    const { data, success } = await response.json()
    expect(success).toBe(true)
    expect(data.sandbox).toEqual({
      id: expect.stringMatching(/^sbx_[0-9a-f]{24}$/),
      desktop: false,
      network: false,
      owner: "key",
      createdAt: expect.any(String),
      backend: "local",
      instance: expect.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{8}$/),
      usedAt: expect.any(String)
    })
    expect(data.sandbox.usedAt).toBe(data.sandbox.createdAt)
    const desktop = await createSandbox(gateway, mine, { desktop: true, network: true })
    expect(desktop).toMatchObject({ desktop: true, network: true, display: { width: 1024, height: 768 } })
  })

  it("lists, shows and deletes only the caller's own", async () => {
    const own = await createSandbox(gateway, mine)
    const other = await createSandbox(gateway, theirs)
    const listed = (await (await get("/sandboxes", mine)).json()).data.sandboxes.map((s: { id: string }) => s.id)
    expect(listed).toContain(own.id)
    expect(listed).not.toContain(other.id)

    expect((await (await get(`/sandboxes/${own.id}`, mine)).json()).data.sandbox.id).toBe(own.id)
    const forbidden = await get(`/sandboxes/${other.id}`, mine)
    expect(forbidden.status).toBe(403)
    expect(await forbidden.json()).toMatchObject({
      error: "Forbidden",
      details: { sandboxId: other.id },
      correlationId: expect.any(String)
    })
    expect((await remove(`/sandboxes/${other.id}`, mine)).status).toBe(403)

    const deleted = await remove(`/sandboxes/${own.id}`, mine)
    expect(await deleted.json()).toEqual({ success: true, data: { id: own.id, deleted: true } })
    const gone = await get(`/sandboxes/${own.id}`, mine)
    expect(gone.status).toBe(404)
    expect((await gone.json()).message).toBe(`No sandbox ${own.id}. GET /api/v1/sandboxes lists yours.`)
    expect((await remove("/sandboxes/sbx_nope", mine)).status).toBe(404)
  })

  it("refuses bad bodies and missing keys with the spec's error bodies", async () => {
    const wrongType = await postJson(`${gateway.url}/api/v1/sandboxes`, { desktop: "yes" }, bearer(mine))
    expect(wrongType.status).toBe(400)
    expect((await wrongType.json()).message).toMatch(/desktop/)
    const malformed = await postJson(`${gateway.url}/api/v1/sandboxes`, "{", bearer(mine))
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).error).toBe("BadRequest")
    const anonymous = await postJson(`${gateway.url}/api/v1/sandboxes`, {})
    expect(anonymous.status).toBe(401)
  })

  it("is in the OpenAPI document", async () => {
    const document = await (await fetch(`${gateway.url}/openapi.json`)).json()
    expect(Object.keys(document.paths["/api/v1/sandboxes"])).toEqual(expect.arrayContaining(["get", "post"]))
    expect(Object.keys(document.paths["/api/v1/sandboxes/{id}"])).toEqual(expect.arrayContaining(["get", "delete"]))
  })
})
