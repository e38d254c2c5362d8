import type { Effect } from "effect"
import type { DesktopAction, Point } from "./desktopActions.ts"
import type {
  CommandResult,
  CreateSandbox,
  DisplaySize,
  InvalidDesktopAction,
  RunCommand,
  SandboxBackendName,
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
 * desktop, addressed by id; the seam every backend passes
 * (`PARLEY_SANDBOX_BACKEND`, docs/DESIGN.md §3.13, and the conformance suite
 * in test/sandbox/conformance.ts). Shaped after the AI SDK's
 * `Experimental_SandboxSession` (`run`, `readFile`, `writeFile`; relative
 * paths resolve against the workspace `/workspace`). Ownership is the
 * caller's to check (`sandboxAccess.ts`). Interrupting `run` or `desktop`
 * kills what they started. Every use of a sandbox counts as use for
 * `PARLEY_SANDBOX_IDLE`, after which the backend reclaims it.
 */
export interface SandboxBackend {
  readonly name: SandboxBackendName
  /** This instance (`PARLEY_INSTANCE_ID`): a `local` backend uses the sandboxes recorded as its own only. */
  readonly instance: string
  readonly display: DisplaySize
  /** Checks that the host or engine can run it, then records it. */
  readonly create: (input: CreateSandbox) => Effect.Effect<SandboxInfo, SandboxUnavailable>
  /**
   * The record of any sandbox, whatever its backend and instance; the rest
   * act on those in this gateway's reach only (`outOfReach`: SandboxElsewhere).
   */
  readonly get: (id: string) => Effect.Effect<SandboxInfo, SandboxNotFound>
  readonly list: Effect.Effect<ReadonlyArray<SandboxInfo>>
  /** Why it cannot make or run sandboxes now, with what to do (`/ready`); undefined when it can. */
  readonly problem: Effect.Effect<string | undefined>
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
