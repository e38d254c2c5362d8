import { Effect, Layer } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { SandboxRecords } from "../../src/sandbox/SandboxRecords.ts"
import * as Database from "../../src/store/Database.ts"
import { provider } from "./conformance.ts"
import { describeEngine, dockerSandboxes, engineClient, engines } from "./engines.ts"
import { dataDirectory } from "./support.ts"

/**
 * What becomes of `docker` sandboxes and containers left behind
 * (round4 S): unused past PARLEY_SANDBOX_IDLE they are reclaimed; a
 * container whose record is gone is removed; a sandbox whose container went
 * missing is gone; one whose container stopped starts again.
 */

const IDLE_MS = 2_000
// Each engine's sandboxes on a database of their own: the records of one database are one engine's.
const folders = engines.map(() => dataDirectory())
folders.forEach(({ data }) => mkdirSync(data, { recursive: true }))
afterAll(() => folders.forEach(({ base }) => rmSync(base, { recursive: true, force: true })))

/** Deletes a record behind the backend's back, as another instance's delete whose engine call failed. */
const removeRecord = (data: string, id: string) =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(SandboxRecords), (store) => store.remove(id, "docker", null)).pipe(
      Effect.provide(Layer.provide(SandboxRecords.layer, Database.layerFromUrl(`sqlite:${join(data, "parley.db")}`)))
    )
  )

for (const [index, engine] of engines.entries()) {
  const { data } = folders[index]!
  describeEngine(engine, `sandboxes left behind on ${engine.name}`, () => {
    const subject = (idleMs: number) =>
      ({
        backend: "docker",
        sandboxes: () => dockerSandboxes(engine, data, {}, { idleMs, reclaimIntervalMs: 250 }),
        hostFolder: data
      }) as const
    const docker = engineClient(engine)
    const containers = async (id: string) =>
      (await docker.listContainers({ all: true, filters: { label: [`parley.sandbox=${id}`] } })).map((found) =>
        found.Id
      )

    describe("with PARLEY_SANDBOX_IDLE", () => {
      const { create, on, run } = provider(subject(IDLE_MS))
      it("unused that long, a sandbox is reclaimed; a used one stays; the reclaimed one is unknown", async () => {
        const [idle, busy] = [await create(), await create()]
        const started = Date.now()
        while (Date.now() - started < 2 * IDLE_MS) {
          expect((await run(busy.id, "echo busy")).stdout).toBe("busy\n")
          await new Promise((resolve) => setTimeout(resolve, 300))
        }
        const reclaimed = await on((sandboxes) => Effect.flip(sandboxes.run(idle.id, { command: "true" })))
        expect(reclaimed._tag).toBe("SandboxNotFound")
        expect(await containers(idle.id)).toEqual([])
        expect((await on((sandboxes) => sandboxes.get(busy.id))).id).toBe(busy.id)
        expect(await containers(busy.id)).toHaveLength(1)
      }, 60_000)
    })

    describe("never idle", () => {
      const { create, on, run } = provider(subject(0))

      it("a container whose record is gone is removed", async () => {
        const { id } = await create()
        expect(await containers(id)).toHaveLength(1)
        expect(await removeRecord(data, id)).toBe(true)
        const deadline = Date.now() + 10_000
        while ((await containers(id)).length > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
        expect(await containers(id)).toEqual([])
      })

      it("a sandbox whose container was removed outside parley is gone; a stopped one starts again", async () => {
        const [removed, stopped] = [await create(), await create()]
        await run(stopped.id, "echo kept > note")
        await docker.getContainer((await containers(removed.id))[0]!).remove({ force: true })
        const missing = await on((sandboxes) => Effect.flip(sandboxes.run(removed.id, { command: "true" })))
        expect(missing._tag === "SandboxNotFound" && missing.remedy).toContain("removed outside parley")
        expect((await on((sandboxes) => Effect.flip(sandboxes.get(removed.id))))._tag).toBe("SandboxNotFound")

        await docker.getContainer((await containers(stopped.id))[0]!).stop({ t: 0 })
        const again = await run(stopped.id, "cat note 2>&1; echo started")
        // Its workspace is a tmpfs of the container: stopped, it was emptied.
        expect(again.stdout).toContain("started\n")
        expect(again.stdout).toContain("No such file")
      })
    })
  })
}
