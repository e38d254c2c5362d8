import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../../src/config/AppConfig.ts"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { SandboxStore } from "../../src/sandbox/SandboxStore.ts"
import * as Database from "../../src/store/Database.ts"

describe("SandboxProvider.layer", () => {
  it.effect("takes its folder, display, instance and database from AppConfig", () =>
    Effect.gen(function*() {
      const base = mkdtempSync(join(tmpdir(), "parley-sandboxes-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(base, { recursive: true, force: true })))
      const root = join(base, "sandboxes")
      const config = AppConfig.layerTest({
        sandbox: { root, limits: {}, display: { width: 1280, height: 800 } },
        instanceId: "web-7",
        databaseUrl: Redacted.make(`sqlite:${join(base, "parley.db")}`)
      })
      const recorded = {
        id: "sbx_0123456789abcdef01234567",
        ownerKeyId: "key_1",
        desktop: false,
        network: false,
        backend: "local" as const,
        instance: "web-3",
        createdAt: new Date(),
        usedAt: new Date()
      }
      yield* Effect.flatMap(SandboxStore, (store) => store.insert({ ...recorded, uid: 1_000_000 })).pipe(
        Effect.provide(SandboxStore.layer({ root, instance: "web-3" })),
        Effect.provide(Database.layer),
        Effect.provide(config)
      )
      const found = yield* Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        return { display: sandboxes.display, instance: sandboxes.instance, listed: yield* sandboxes.list }
      }).pipe(
        Effect.provide(SandboxProvider.layer.pipe(Layer.provide(Database.layer), Layer.provideMerge(config)))
      )
      assert.deepStrictEqual(found.display, { width: 1280, height: 800 })
      assert.strictEqual(found.instance, "web-7")
      assert.deepStrictEqual(found.listed, [recorded])
    }))
})
