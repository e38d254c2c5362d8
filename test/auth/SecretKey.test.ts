import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { mkdtempSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SecretKey } from "../../src/auth/SecretKey.ts"
import { AppConfig } from "../../src/config/AppConfig.ts"

const keyIn = (dataDir: string, secretKey?: string) =>
  Effect.map(
    Layer.build(
      SecretKey.layer.pipe(
        Layer.provide(AppConfig.layerTest({
          dataDir,
          secretKey: secretKey === undefined ? undefined : Redacted.make(secretKey)
        }))
      )
    ),
    (context) => Redacted.value(Context.get(context, SecretKey))
  ).pipe(Effect.scoped)

describe("SecretKey (PARLEY_SECRET_KEY)", () => {
  it.effect("is generated once into the data folder, private, and read back on the next start", () =>
    Effect.gen(function*() {
      const dataDir = join(mkdtempSync(join(tmpdir(), "parley-secret-")), "data")
      const first = yield* keyIn(dataDir)
      assert.strictEqual(first.length, 32)
      assert.strictEqual(statSync(join(dataDir, "secret.key")).mode & 0o777, 0o600)
      assert.deepStrictEqual(yield* keyIn(dataDir), first)
    }))

  it.effect("comes from the setting when set, and then nothing is written", () =>
    Effect.gen(function*() {
      const dataDir = join(mkdtempSync(join(tmpdir(), "parley-secret-")), "data")
      const key = Buffer.alloc(32, 9)
      assert.deepStrictEqual(yield* keyIn(dataDir, key.toString("base64")), key)
      assert.throws(() => statSync(join(dataDir, "secret.key")))
    }))
})
