import { afterAll, assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { hostIdentity } from "../../src/sandbox/jail.ts"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { makeSettings } from "../../src/sandbox/SandboxSettings.ts"
import { SandboxStore } from "../../src/sandbox/SandboxStore.ts"
import { dataDirectory, eventually, processesWith, testSandboxes, testStore } from "./support.ts"

const { base, data, sandboxes: root } = dataDirectory()
afterAll(() => rmSync(base, { recursive: true, force: true }))
const waitFor = (check: () => boolean, timeoutMs: number) => Effect.promise(() => eventually(check, timeoutMs))

// Live services: commands, timeouts and desktops run in real time.
layer(Layer.mergeAll(testSandboxes(root), testStore(root)), { excludeTestServices: true })(
  "the local backend",
  (it) => {
    it.effect("keeps each workspace in a folder of its own, the sandbox's host user's and closed to others", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const sandbox = yield* sandboxes.create({ ownerKeyId: "key_1", desktop: false, network: false })
        const { uid } = Option.getOrThrow(yield* (yield* SandboxStore).get(sandbox.id))
        assert.strictEqual(sandbox.instance, makeSettings({ root }).instance)
        const workspace = join(root, sandbox.id, "workspace")
        const identity = hostIdentity(uid)
        if (identity !== undefined) assert.strictEqual(statSync(workspace).uid, identity.uid)
        assert.strictEqual(statSync(workspace).mode & 0o777, 0o700)

        // A link to a host file resolves inside the jail; deleting the sandbox removes the link, not its target.
        mkdirSync(data, { recursive: true })
        const secret = join(data, "host-secret.txt")
        writeFileSync(secret, "host only")
        yield* sandboxes.run(sandbox.id, { command: `ln -s ${secret} link` })
        yield* sandboxes.destroy(sandbox.id)
        assert.isFalse(existsSync(join(root, sandbox.id)))
        assert.isTrue(existsSync(secret), "destroying the sandbox must not follow its links")
      }))

    it.effect("a desktop removed by another process (the CLI) stops at the next sweep", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: true, network: false })
        yield* sandboxes.desktop(id, { action: "mouse_move", coordinate: [10, 10] })
        assert.isAbove(processesWith(id).length, 0, "its display server runs")
        yield* (yield* SandboxStore).remove(id)
        assert.isTrue(yield* waitFor(() => processesWith(id).length === 0, 3_000))
      }))
  }
)

describe("sandbox records", () => {
  it.effect("written by earlier versions in their folders join the table as this instance's; bad ones are left", () =>
    Effect.gen(function*() {
      const { base, sandboxes: root } = dataDirectory()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(base, { recursive: true, force: true })))
      const good = "sbx_00000a000000000000000000"
      const bad = "sbx_000000000000000000000000"
      const record = (id: string, text: string) => {
        mkdirSync(join(root, id), { recursive: true })
        writeFileSync(join(root, id, "sandbox.json"), text)
      }
      // Written before uids were allocated: the uid is derived from the id.
      record(
        good,
        JSON.stringify({
          id: good,
          ownerKeyId: null,
          desktop: true,
          network: false,
          createdAt: "2025-01-02T03:04:05.000Z"
        })
      )
      record(bad, "{not json")
      const found = yield* Effect.flatMap(SandboxStore, (store) => store.get(good)).pipe(
        Effect.provide(testStore(root))
      )
      const createdAt = new Date("2025-01-02T03:04:05.000Z")
      const { usedAt, ...imported } = Option.getOrThrow(found)
      // Counted as used when imported: PARLEY_SANDBOX_IDLE starts then.
      assert.isAbove(usedAt.getTime(), Date.now() - 60_000)
      assert.deepStrictEqual(imported, {
        id: good,
        ownerKeyId: null,
        desktop: true,
        network: false,
        backend: "local",
        instance: makeSettings({ root }).instance,
        createdAt,
        uid: 1_000_010
      })
      assert.isFalse(existsSync(join(root, good, "sandbox.json")))
      assert.isTrue(existsSync(join(root, bad, "sandbox.json")))
      // Its uid is claimed: the next sandbox gets another.
      assert.isTrue(existsSync(join(root, ".uids", "1000010")))
    }))
})
