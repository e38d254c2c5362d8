import { afterAll, assert, layer } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { dataDirectory, eventually, marked, processesWith, testSandboxes } from "../sandbox/support.ts"

/**
 * The reliability suite's sandbox part: what one sandbox may take from the
 * host. Sized for CI (tens of MiB); the caps are what is checked, not the
 * host's patience.
 */

const MiB = 1024 * 1024
const MEMORY = 96 * MiB
const DISK = 32 * MiB

const { base, sandboxes: root } = dataDirectory()
afterAll(() => rmSync(base, { recursive: true, force: true }))
const waitFor = (check: () => boolean, timeoutMs: number) => Effect.promise(() => eventually(check, timeoutMs))
const caps = testSandboxes(root, { memoryBytes: MEMORY, diskBytes: DISK })

layer(caps, { excludeTestServices: true })("a sandbox's resources", (it) => {
  it.effect("/tmp and /dev/shm (host memory) hold at most PARLEY_SANDBOX_MEMORY; /dev takes nothing", () =>
    Effect.gen(function*() {
      const sandboxes = yield* SandboxProvider
      const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: false, network: false })
      const result = yield* sandboxes.run(id, {
        command: [
          "head -c 200M /dev/zero > /tmp/fill; echo \"tmp $?\"; stat -c %s /tmp/fill",
          "head -c 200M /dev/zero > /dev/shm/fill; echo \"shm $?\"; stat -c %s /dev/shm/fill",
          "echo x > /dev/fill; echo \"dev $?\""
        ].join("\n")
      })
      const [tmp, tmpSize, shm, shmSize, dev] = result.stdout.trim().split("\n")
      assert.deepStrictEqual([tmp, shm, dev], ["tmp 1", "shm 1", "dev 1"])
      assert.isAtMost(Number(tmpSize), MEMORY)
      assert.isAtMost(Number(shmSize), MEMORY)
      assert.include(result.stderr, "No space left on device")
      assert.include(result.stderr, "Read-only file system")
    }))

  it.effect("the workspace holds at most PARLEY_SANDBOX_DISK, and the host keeps the rest", () =>
    Effect.gen(function*() {
      const sandboxes = yield* SandboxProvider
      const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: false, network: false })
      const full = yield* sandboxes.run(id, { command: "head -c 100M /dev/zero > big; echo $?; stat -c %s big" })
      const [status, size] = full.stdout.trim().split("\n")
      assert.strictEqual(status, "1")
      assert.isAtMost(Number(size), DISK)
      assert.include(full.stderr, "No space left on device")
      // What the sandbox wrote is on its image, nowhere else on the host.
      assert.isAtMost(statSync(join(root, id, "disk.img")).blocks * 512, DISK)
      // Deleting makes room again.
      const after = yield* sandboxes.run(id, { command: "rm big && head -c 1M /dev/zero > small && echo ok" })
      assert.strictEqual(after.stdout, "ok\n")
    }))

  it.effect("deleting a sandbox stops its running commands within 5 s, whichever process started them", () =>
    Effect.gen(function*() {
      const sandboxes = yield* SandboxProvider
      const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: false, network: false })
      const marker = `doomed-${id}`
      const fiber = yield* Effect.forkChild(sandboxes.run(id, {
        command: marked(marker, "setsid sleep 600 & sleep 600 & wait"),
        timeoutMs: 300_000
      }))
      assert.isTrue(yield* waitFor(() => processesWith(marker).length > 0, 5_000))
      // Another provider over the same folder, as `parley sandbox rm` in another process.
      const deletedAt = Date.now()
      yield* Effect.flatMap(SandboxProvider, (other) => other.destroy(id)).pipe(Effect.provide(testSandboxes(root)))
      assert.isTrue(yield* waitFor(() => processesWith(marker).length === 0 && processesWith(id).length === 0, 5_000))
      assert.isBelow(Date.now() - deletedAt, 5_000)
      const exit = yield* Fiber.await(fiber)
      assert.isTrue(Exit.isSuccess(exit) && exit.value.exitCode !== 0)
    }))
})
