import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import type { Point, DesktopAction } from "./desktopActions.ts"
import { makeLocalSandboxes } from "./LocalSandboxes.ts"
import type {
  CommandResult,
  CreateSandbox,
  DisplaySize,
  InvalidDesktopAction,
  RunCommand,
  SandboxFileError,
  SandboxInfo,
  SandboxNotFound,
  SandboxUnavailable
} from "./Sandbox.ts"
import { makeSettings, type SandboxSettings } from "./SandboxSettings.ts"
import { SandboxStore } from "./SandboxStore.ts"

/** What a desktop action gives back: a PNG for `screenshot`, the pointer for `cursor_position`. */
export interface DesktopResult {
  readonly screenshot?: Uint8Array
  readonly cursor?: Point
}

/**
 * Sandboxes: isolated places to run commands, keep files and drive a
 * desktop, addressed by id. Shaped after the AI SDK's
 * `Experimental_SandboxSession` (`run`, `readFile`, `writeFile`; relative
 * paths resolve against the workspace) so a remote backend can stand in for
 * the embedded one. Ownership is the caller's to check (`sandboxAccess.ts`).
 * Interrupting `run` or `desktop` kills what they started.
 */
export class SandboxProvider extends Context.Service<SandboxProvider, {
  readonly display: DisplaySize
  /** Checks that the host can run it, then records it. */
  readonly create: (input: CreateSandbox) => Effect.Effect<SandboxInfo, SandboxUnavailable>
  readonly get: (id: string) => Effect.Effect<SandboxInfo, SandboxNotFound>
  readonly list: Effect.Effect<ReadonlyArray<SandboxInfo>>
  /** Stops its desktop and deletes its workspace. */
  readonly destroy: (id: string) => Effect.Effect<void, SandboxNotFound>
  readonly run: (id: string, command: RunCommand) => Effect.Effect<CommandResult, SandboxNotFound | SandboxUnavailable>
  /** null when the file does not exist. */
  readonly readFile: (
    id: string,
    path: string
  ) => Effect.Effect<Uint8Array | null, SandboxNotFound | SandboxUnavailable | SandboxFileError>
  /** Creates parent folders; overwrites. */
  readonly writeFile: (
    id: string,
    path: string,
    content: Uint8Array
  ) => Effect.Effect<void, SandboxNotFound | SandboxUnavailable | SandboxFileError>
  readonly desktop: (
    id: string,
    action: DesktopAction
  ) => Effect.Effect<DesktopResult, SandboxNotFound | SandboxUnavailable | InvalidDesktopAction>
}>()("parley/sandbox/SandboxProvider") {
  /** The embedded bubblewrap backend with the given settings. */
  static readonly layerLocal = (settings: SandboxSettings) =>
    Layer.effect(SandboxProvider, makeLocalSandboxes(settings)).pipe(Layer.provide(SandboxStore.layer(settings.root)))

  /** The embedded backend as configured (`PARLEY_SANDBOX_*`). */
  static readonly layer = Layer.unwrap(
    Effect.map(Effect.service(AppConfig), (config) => SandboxProvider.layerLocal(makeSettings(config.sandbox)))
  )

  /** For tests: the embedded backend under `root` with smaller limits where given. */
  static readonly layerTest = (overrides: Parameters<typeof makeSettings>[0]) =>
    SandboxProvider.layerLocal(makeSettings(overrides))
}
