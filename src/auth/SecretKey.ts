import { Context, Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { AppConfig } from "../config/AppConfig.ts"

const MIN_BYTES = 32
const FILE = "secret.key"

const decode = (text: string): Buffer | undefined => {
  const bytes = Buffer.from(text.trim(), "base64")
  return bytes.length >= MIN_BYTES ? bytes : undefined
}

/**
 * `PARLEY_SECRET_KEY` (docs/DESIGN.md §4): signs console sessions' CSRF
 * tokens. When unset, one is generated into the data folder on first start
 * and read from there afterwards, so it survives restarts; instances share
 * it only if they share the folder or set the variable.
 */
export class SecretKey extends Context.Service<SecretKey, Redacted.Redacted<Buffer>>()("parley/auth/SecretKey") {
  static readonly layer = Layer.effect(
    SecretKey,
    Effect.gen(function*() {
      const config = yield* AppConfig
      if (config.secretKey !== undefined) {
        // AppConfig checked its length.
        return Redacted.make(Buffer.from(Redacted.value(config.secretKey).trim(), "base64"))
      }
      const path = join(config.dataDir, FILE)
      const stored = yield* Effect.promise(() => readFile(path, "utf8").catch(() => undefined))
      const existing = stored === undefined ? undefined : decode(stored)
      if (existing !== undefined) return Redacted.make(existing)
      const fresh = randomBytes(MIN_BYTES)
      yield* Effect.promise(async () => {
        await mkdir(config.dataDir, { recursive: true })
        // `wx`: if another instance wrote one meanwhile, keep theirs (read below).
        await writeFile(path, fresh.toString("base64") + "\n", { mode: 0o600, flag: "wx" }).catch(() => undefined)
      })
      const written = decode(yield* Effect.promise(() => readFile(path, "utf8")))
      return Redacted.make(written ?? fresh)
    })
  )

  static readonly layerTest = Layer.sync(SecretKey, () => Redacted.make(randomBytes(MIN_BYTES)))
}
