import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import { makeLocalSandboxes } from "./LocalSandboxes.ts"
import type { SandboxBackend } from "./SandboxBackend.ts"
import { makeSettings, type SandboxSettings } from "./SandboxSettings.ts"
import { SandboxStore } from "./SandboxStore.ts"

/** The gateway's sandboxes (`SandboxBackend` says what they offer); the embedded bubblewrap backend by default. */
export class SandboxProvider
  extends Context.Service<SandboxProvider, SandboxBackend>()("parley/sandbox/SandboxProvider")
{
  /** The embedded bubblewrap backend with the given settings, its records in the database. */
  static readonly layerLocal = (settings: SandboxSettings) =>
    Layer.effect(SandboxProvider, makeLocalSandboxes(settings)).pipe(Layer.provide(SandboxStore.layer(settings)))

  /** The embedded backend as configured (`PARLEY_SANDBOX_*`, `PARLEY_INSTANCE_ID`). */
  static readonly layer = Layer.unwrap(
    Effect.map(
      Effect.service(AppConfig),
      (config) => SandboxProvider.layerLocal(makeSettings({ ...config.sandbox, instance: config.instanceId }))
    )
  )

  /** For tests: the embedded backend under `root` with smaller limits where given. */
  static readonly layerTest = (overrides: Parameters<typeof makeSettings>[0]) =>
    SandboxProvider.layerLocal(makeSettings(overrides))
}
