import { ConfigProvider, Effect } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../../src/config/AppConfig.ts"

export const tempDir = (): string => mkdtempSync(join(tmpdir(), "parley-config-"))

/** A fresh directory with `parley.config.json` holding `content` (a string is written verbatim). */
export const writeConfigFile = (content: unknown, dir = tempDir()): string => {
  const path = join(dir, "parley.config.json")
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2))
  return path
}

/**
 * Runs `effect` against exactly these environment variables, from `cwd`
 * (default: a fresh empty directory, so a developer's own ./parley.config.json
 * cannot leak in).
 */
export const withEnvironment = <A, E>(effect: Effect.Effect<A, E>, env: Record<string, string>, cwd = tempDir()) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const previous = process.cwd()
      process.chdir(cwd)
      return previous
    }),
    () => effect.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))),
    (previous) => Effect.sync(() => process.chdir(previous))
  )

/** AppConfig built by its real layer; see `withEnvironment`. */
export const loadAppConfig = (env: Record<string, string>, cwd?: string) =>
  withEnvironment(
    Effect.gen(function*() {
      return yield* AppConfig
    }).pipe(Effect.provide(AppConfig.layer)),
    env,
    cwd
  )
