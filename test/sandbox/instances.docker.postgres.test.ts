import { it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { expect } from "vitest"
import { ADMIN_TOKEN } from "../app/instances.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer } from "../support/http.ts"
import { bashThroughChat, createSandbox, scriptOneToolCall } from "./chat.ts"
import { describeEngine, dockerEngine, dockerSandboxesOver, engineClient } from "./engines.ts"

/**
 * Sandboxes on an engine, shared by every instance (round4 S, docs/DESIGN.md
 * §8): two gateways on one Postgres and one Docker Engine use, read, write
 * and delete each other's sandboxes through the API, one of them restarted
 * in between.
 */
const startInstance = async (databaseUrl: string, id: string): Promise<TestGateway> => {
  const gateway = await startGateway({
    databaseUrl,
    config: { adminToken: Redacted.make(ADMIN_TOKEN) },
    sandboxes: dockerSandboxesOver(dockerEngine, {}, { instance: id })
  })
  scriptOneToolCall(gateway)
  return gateway
}

const removeContainersOf = async (id: string) => {
  const docker = engineClient(dockerEngine)
  const left = await docker.listContainers({ all: true, filters: { label: [`parley.sandbox=${id}`] } })
  await Promise.all(left.map((found) => docker.getContainer(found.Id).remove({ force: true })))
}

describePostgres("docker sandboxes on many instances sharing one Postgres", () => {
  describeEngine(dockerEngine, "and one Docker Engine", () => {
    it.live(
      "any instance uses, reads, writes and deletes any sandbox; it outlives a restart of its maker",
      () =>
        withFreshSchema((schema) =>
          Effect.promise(async () => {
            const url = urlWithSchema(schema)
            let a = await startInstance(url, "gw-a")
            const b = await startInstance(url, "gw-b")
            let made: string | undefined
            try {
              const { secret } = await a.createKey()
              const auth = bearer(secret)
              const sandbox = await createSandbox(a, secret)
              made = sandbox.id
              expect(sandbox).toMatchObject({ backend: "docker", instance: null })

              // Written through the other instance: no 409, the same container.
              expect((await bashThroughChat(b, secret, sandbox.id, { command: "echo made-on-b > note" })).exit_code)
                .toBe(0)
              const shown = await fetch(`${b.url}/api/v1/sandboxes/${sandbox.id}`, { headers: auth })
              expect(shown.status).toBe(200)
              expect((await shown.json()).data.sandbox).toMatchObject({ id: sandbox.id, backend: "docker" })

              // The instance that made it restarts; the sandbox and its files are still there.
              await a.close()
              a = await startInstance(url, "gw-a")
              expect((await bashThroughChat(a, secret, sandbox.id, { command: "cat note" })).stdout).toBe("made-on-b\n")
              const listed = await (await fetch(`${a.url}/admin/v1/sandboxes`, { headers: bearer(ADMIN_TOKEN) })).json()
              expect(listed.data.sandboxes).toEqual([
                expect.objectContaining({ id: sandbox.id, backend: "docker", instance: null })
              ])

              const removed = await fetch(`${b.url}/api/v1/sandboxes/${sandbox.id}`, {
                method: "DELETE",
                headers: auth
              })
              expect(removed.status).toBe(200)
              const gone = await fetch(`${a.url}/api/v1/sandboxes/${sandbox.id}`, { headers: auth })
              expect(gone.status).toBe(404)
              expect(await gone.json()).toMatchObject({ error: "NotFound", details: { sandboxId: sandbox.id } })
              const containers = await engineClient(dockerEngine).listContainers({
                all: true,
                filters: { label: [`parley.sandbox=${sandbox.id}`] }
              })
              expect(containers).toEqual([])
            } finally {
              await a.close()
              await b.close()
              // Whatever happened above, its container does not outlive the test.
              if (made !== undefined) await removeContainersOf(made)
            }
          })
        ),
      120_000
    )
  })
})
