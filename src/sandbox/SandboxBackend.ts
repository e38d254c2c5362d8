import type { Effect } from "effect"
import type { DesktopAction, Point } from "./desktopActions.ts"
import type {
  CommandResult,
  CreateSandbox,
  DisplaySize,
  InvalidDesktopAction,
  RunCommand,
  SandboxElsewhere,
  SandboxFileError,
  SandboxInfo,
  SandboxNotFound,
  SandboxUnavailable
} from "./Sandbox.ts"

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
export interface SandboxBackend {
  /** This instance (`PARLEY_INSTANCE_ID`): the one whose sandboxes these methods use. */
  readonly instance: string
  readonly display: DisplaySize
  /** Checks that the host can run it, then records it as this instance's. */
  readonly create: (input: CreateSandbox) => Effect.Effect<SandboxInfo, SandboxUnavailable>
  /** The record of any instance's sandbox; the rest act on this instance's only (SandboxElsewhere). */
  readonly get: (id: string) => Effect.Effect<SandboxInfo, SandboxNotFound>
  readonly list: Effect.Effect<ReadonlyArray<SandboxInfo>>
  /** Stops its desktop and deletes its workspace. */
  readonly destroy: (id: string) => Effect.Effect<void, Missing>
  readonly run: (id: string, command: RunCommand) => Effect.Effect<CommandResult, Missing | SandboxUnavailable>
  /** null when the file does not exist. */
  readonly readFile: (
    id: string,
    path: string
  ) => Effect.Effect<Uint8Array | null, Missing | SandboxUnavailable | SandboxFileError>
  /** Creates parent folders; overwrites. */
  readonly writeFile: (
    id: string,
    path: string,
    content: Uint8Array
  ) => Effect.Effect<void, Missing | SandboxUnavailable | SandboxFileError>
  readonly desktop: (
    id: string,
    action: DesktopAction
  ) => Effect.Effect<DesktopResult, Missing | SandboxUnavailable | InvalidDesktopAction>
}

/** Not here: no such sandbox, or another instance holds it. */
type Missing = SandboxNotFound | SandboxElsewhere
