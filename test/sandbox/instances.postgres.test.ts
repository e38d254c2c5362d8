import { it } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { startSandboxInstance } from "../app/instances.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"
import type { TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { bashThroughChat, createSandbox, scriptOneToolCall } from "./chat.ts"

describePostgres("sandboxes on many instances sharing one Postgres", () => {
  it.live("every instance sees a sandbox; only its own instance uses it, the others answer 409 naming it", () =>
    withFreshSchema((schema) =>
      Effect.promise(async () => {
        const a = await startSandboxInstance(urlWithSchema(schema), "gw-a")
        const b = await startSandboxInstance(urlWithSchema(schema), "gw-b")
        try {
          const { secret } = await a.createKey()
          const auth = bearer(secret)
          const sandbox = await createSandbox(a, secret)
          expect(sandbox).toMatchObject({ instance: "gw-a" })
          const conflict = { sandboxId: sandbox.id, instance: "gw-a" }

          // Listed everywhere with where it lives.
          const listed = await (await fetch(`${b.url}/api/v1/sandboxes`, { headers: auth })).json()
          expect(listed.data.sandboxes).toEqual([expect.objectContaining({ id: sandbox.id, instance: "gw-a" })])

          const shown = await fetch(`${b.url}/api/v1/sandboxes/${sandbox.id}`, { headers: auth })
          expect(shown.status).toBe(409)
          expect(await shown.json()).toMatchObject({ error: "Conflict", details: conflict })

          scriptOneToolCall(a)
          scriptOneToolCall(b)
          const body = chatBody({
            messages: [{ role: "user", content: JSON.stringify({ command: "echo hi" }) }],
            allowedTools: ["bash"],
            sandboxId: sandbox.id
          })
          const elsewhere = await postJson(`${b.url}/api/v1/chat`, body, auth)
          expect(elsewhere.status).toBe(409)
          const refused = await elsewhere.json()
          expect(refused).toMatchObject({ error: "Conflict", details: conflict })
          expect(refused.message).toContain("gw-a")
          expect(b.upstream.requests).toHaveLength(0)

          expect((await bashThroughChat(a, secret, sandbox.id, { command: "echo hi" })).stdout).toBe("hi\n")

          const removeOn = (gateway: TestGateway) =>
            fetch(`${gateway.url}/api/v1/sandboxes/${sandbox.id}`, { method: "DELETE", headers: auth })
          const removedElsewhere = await removeOn(b)
          expect(removedElsewhere.status).toBe(409)
          expect(await removedElsewhere.json()).toMatchObject({ details: conflict })
          expect((await removeOn(a)).status).toBe(200)
          expect((await fetch(`${b.url}/api/v1/sandboxes/${sandbox.id}`, { headers: auth })).status).toBe(404)
        } finally {
          await a.close()
          await b.close()
        }
      })
    ))
})
