import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import { makeLocalSandboxes } from "./LocalSandboxes.ts"
import type { SandboxBackend } from "./SandboxBackend.ts"
import { SandboxRecords } from "./SandboxRecords.ts"
import { makeSettings, type SandboxSettings } from "./SandboxSettings.ts"
import { SandboxStore } from "./SandboxStore.ts"

/** The gateway's sandboxes (`SandboxBackend` says what they offer), on the backend `PARLEY_SANDBOX_BACKEND` names. */
export class SandboxProvider
  extends Context.Service<SandboxProvider, SandboxBackend>()("parley/sandbox/SandboxProvider")
{
  /** The embedded bubblewrap backend with the given settings, its records in the database. */
  static readonly layerLocal = (settings: SandboxSettings) =>
    Layer.effect(SandboxProvider, makeLocalSandboxes(settings)).pipe(Layer.provide(SandboxStore.layer(settings)))

  /**
   * The container backend on the engine the settings name, its records in the database. Loaded when chosen:
   * a gateway on the local backend never loads the engine's client (dockerode and what it brings).
   */
  static readonly layerDocker = (settings: SandboxSettings) =>
    Layer.unwrap(Effect.map(
      Effect.promise(() => import("./docker/DockerSandboxes.ts")),
      ({ makeDockerSandboxes }) => Layer.effect(SandboxProvider, makeDockerSandboxes(settings))
    )).pipe(Layer.provide(SandboxRecords.layer))

  /** The backend the settings choose. */
  static readonly layerOf = (settings: SandboxSettings) =>
    settings.backend === "docker" ? SandboxProvider.layerDocker(settings) : SandboxProvider.layerLocal(settings)

  /** As configured (`PARLEY_SANDBOX_*`, `DOCKER_*`, `PARLEY_INSTANCE_ID`). */
  static readonly layer = Layer.unwrap(
    Effect.map(
      Effect.service(AppConfig),
      (config) => SandboxProvider.layerOf(makeSettings({ ...config.sandbox, instance: config.instanceId }))
    )
  )

  /** For tests: the embedded backend under `root` with smaller limits where given. */
  static readonly layerTest = (overrides: Parameters<typeof makeSettings>[0]) =>
    SandboxProvider.layerLocal(makeSettings(overrides))
}
