import { it } from "@effect/vitest"
import { expect } from "vitest"
import { bashThroughChat, createSandbox, scriptOneToolCall } from "../sandbox/chat.ts"
import { describePostgres } from "../store/postgres.ts"
import type { TestGateway } from "../support/gateway.ts"
import { admin, ADMIN_TOKEN, inFreshSchema, startSandboxInstance } from "./instances.ts"

/**
 * The admin API's sandboxes on many instances (docs/DESIGN.md §6, §8): every
 * instance lists them all, but only the one holding a sandbox's workspace
 * can delete it; the others refuse as /api/v1 does, never claiming success.
 */

const deleteOn = async (gateway: TestGateway, id: string) => {
  const response = await fetch(`${gateway.url}/admin/v1/sandboxes/${id}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` }
  })
  return { status: response.status, body: await response.json() }
}

describePostgres("admin sandboxes on many instances sharing one Postgres", () => {
  it.live("another instance's sandbox answers 409 naming its instance and stays; its own instance deletes it", () =>
    inFreshSchema(async (url) => {
      const a = await startSandboxInstance(url, "gw-a")
      const b = await startSandboxInstance(url, "gw-b")
      try {
        const { secret } = await a.createKey()
        const sandbox = await createSandbox(a, secret)
        scriptOneToolCall(a)
        await bashThroughChat(a, secret, sandbox.id, { command: "echo kept > note" })

        const elsewhere = await deleteOn(b, sandbox.id)
        expect(elsewhere.status).toBe(409)
        expect(elsewhere.body).toMatchObject({
          error: "Conflict",
          statusCode: 409,
          details: { sandboxId: sandbox.id, instance: "gw-a" }
        })
        expect(elsewhere.body.message).toContain("only gw-a can delete it")
        expect(elsewhere.body.message).toContain(`parley sandbox rm ${sandbox.id}`)

        // Still there, workspace and all.
        expect((await admin(b, "GET", "/sandboxes")).sandboxes).toEqual([
          expect.objectContaining({ id: sandbox.id, instance: "gw-a" })
        ])
        expect((await bashThroughChat(a, secret, sandbox.id, { command: "cat note" })).stdout).toBe("kept\n")

        expect(await deleteOn(a, sandbox.id)).toMatchObject({
          status: 200,
          body: { success: true, data: { id: sandbox.id, deleted: true } }
        })
        expect((await admin(b, "GET", "/sandboxes")).sandboxes).toEqual([])
        for (const gateway of [a, b]) {
          expect(await deleteOn(gateway, sandbox.id)).toMatchObject({
            status: 404,
            body: {
              error: "NotFound",
              message: `No sandbox ${sandbox.id}. GET /admin/v1/sandboxes lists them.`,
              details: { sandboxId: sandbox.id }
            }
          })
        }
      } finally {
        await a.close()
        await b.close()
      }
    }))
})
