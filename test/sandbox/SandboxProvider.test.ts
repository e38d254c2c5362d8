import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../../src/config/AppConfig.ts"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { SandboxStore } from "../../src/sandbox/SandboxStore.ts"

describe("SandboxProvider.layer", () => {
  it.effect("takes its folder and display from AppConfig", () =>
    Effect.gen(function*() {
      const root = mkdtempSync(join(tmpdir(), "parley-sandboxes-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const recorded = {
        id: "sbx_0123456789abcdef01234567",
        ownerKeyId: "key_1",
        desktop: false,
        network: false,
        createdAt: new Date(),
        uid: 1_000_000
      }
      yield* Effect.flatMap(SandboxStore, (store) => store.insert(recorded)).pipe(
        Effect.provide(SandboxStore.layer(root))
      )
      const { display, ids } = yield* Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        return { display: sandboxes.display, ids: (yield* sandboxes.list).map((sandbox) => sandbox.id) }
      }).pipe(
        Effect.provide(SandboxProvider.layer),
        Effect.provide(AppConfig.layerTest({ sandbox: { root, limits: {}, display: { width: 1280, height: 800 } } }))
      )
      assert.deepStrictEqual(display, { width: 1280, height: 800 })
      assert.deepStrictEqual(ids, [recorded.id])
    }))
})
