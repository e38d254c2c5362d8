import { afterAll, assert, it, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { SandboxStore } from "../../src/sandbox/SandboxStore.ts"
import { dataDirectory, testSandboxes, testStore } from "./support.ts"

const { base, sandboxes: root } = dataDirectory()
afterAll(() => rmSync(base, { recursive: true, force: true }))
const isRoot = process.getuid?.() === 0
const plain = { ownerKeyId: null, desktop: false, network: false }

const uidOf = (id: string) =>
  Effect.flatMap(SandboxStore, (store) => store.get(id)).pipe(
    Effect.orDie,
    Effect.map((found) => Option.getOrThrow(found).uid)
  )

layer(Layer.mergeAll(testSandboxes(root), testStore(root)), { excludeTestServices: true })(
  "sandboxes apart from each other and the host",
  (it) => {
    it.effect("give each sandbox its own host uid, recorded, and free it again on delete", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const made = yield* Effect.forEach([1, 2, 3, 4], () => sandboxes.create(plain), { concurrency: 4 })
        const uids = yield* Effect.forEach(made, (sandbox) => uidOf(sandbox.id))
        assert.strictEqual(new Set(uids).size, uids.length)
        for (const [i, sandbox] of made.entries()) {
          assert.strictEqual(readFileSync(join(root, ".uids", String(uids[i])), "utf8"), sandbox.id)
          if (isRoot) assert.strictEqual(statSync(join(root, sandbox.id, "workspace")).uid, uids[i])
        }
        const [freed] = made
        yield* sandboxes.destroy(freed!.id)
        // The lowest free uid is taken, so the one just freed (every lower one is in use).
        const next = yield* sandboxes.create(plain)
        assert.strictEqual(yield* uidOf(next.id), uids[0])
      }))

    it.effect("show a jail nothing of the host's folders in /proc/self/mountinfo", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const { id } = yield* sandboxes.create(plain)
        const result = yield* sandboxes.run(id, { command: "cat /proc/self/mountinfo; grep -c . /proc/self/mountinfo" })
        assert.include(result.stdout, " /workspace ")
        assert.notInclude(result.stdout, base)
        assert.notInclude(result.stdout, id)
      }))
  }
)

it.effect.skipIf(!isRoot)(
  "a sandbox folder under a folder closed to others (0700) is named with the fix",
  () =>
    Effect.gen(function*() {
      const closed = join(base, "closed")
      mkdirSync(closed, { recursive: true })
      chmodSync(closed, 0o700)
      const error = yield* Effect.flip(
        Effect.flatMap(SandboxProvider, (sandboxes) => sandboxes.create(plain)).pipe(
          Effect.provide(testSandboxes(join(closed, "data", "sandboxes")))
        )
      )
      assert.strictEqual(error._tag, "SandboxUnavailable")
      assert.include(error.message, `${closed} is closed to other users`)
      assert.include(error.message, `chmod o+x ${closed}`)
      assert.notInclude(error.message, "user namespaces")
    })
)
