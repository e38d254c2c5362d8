import { Effect, Semaphore } from "effect"
import { commandResult } from "./commandResult.ts"
import { checkAction, type DesktopAction, xdotoolArgs } from "./desktopActions.ts"
import { desktopResult } from "./desktopResult.ts"
import { bytesOf, type ProcessResult } from "./runProcess.ts"
import {
  type DisplaySize,
  InvalidDesktopAction,
  type RunCommand,
  type SandboxElsewhere,
  SandboxFileError,
  type SandboxInfo,
  type SandboxNotFound,
  type SandboxUnavailable
} from "./Sandbox.ts"
import type { SandboxBackend } from "./SandboxBackend.ts"
import type { SandboxLimits } from "./SandboxSettings.ts"

const MiB = 1024 * 1024
const FILE_LIMIT = 64 * MiB
const DESKTOP_ACTION_TIMEOUT_MS = 60_000

/** A program and its arguments, or a bash script of any length, and how to run it. */
export interface ProgramRun {
  readonly argv: ReadonlyArray<string> | { readonly bashScript: string }
  readonly timeoutMs: number
  readonly stdin?: Uint8Array | undefined
  readonly keep: { readonly headBytes: number; readonly tailBytes: number }
  readonly stopAfterBytes: number
}

type Missing = SandboxNotFound | SandboxElsewhere

/** What a backend brings: its sandboxes in reach, and a program run in one. */
export interface Runner<S extends SandboxInfo> {
  readonly limits: SandboxLimits
  readonly display: DisplaySize
  /** The sandbox, if this gateway reaches it; each call counts as a use. */
  readonly held: (id: string) => Effect.Effect<S, Missing>
  readonly runIn: (sandbox: S, program: ProgramRun) => Effect.Effect<ProcessResult, Missing | SandboxUnavailable>
  /** The backend's own machinery failing before the command ran (not the command failing), if it did. */
  readonly startFailure: (result: ProcessResult) => SandboxUnavailable | undefined
}

/**
 * The commands, files and desktop actions of `SandboxBackend`, the same on
 * every backend, over the backend's way to run a program in a sandbox. Files
 * go through programs in the sandbox too, so symlinks resolve inside it and
 * what is written counts against its own caps.
 */
export const makeOperations = <S extends SandboxInfo>(runner: Runner<S>) => {
  const { display, limits } = runner

  // Each command holds a few processes of the sandbox's process limit; past it the kernel refuses new
  // processes. So commands of one sandbox take turns on this instance, `commandsAtOnce` at a time.
  const permits = new Map<string, Semaphore.Semaphore>()
  const permitsOf = (id: string) => {
    let semaphore = permits.get(id)
    if (semaphore === undefined) permits.set(id, semaphore = Semaphore.makeUnsafe(limits.commandsAtOnce))
    return semaphore
  }

  /** `program` in the sandbox in its turn; it is looked up again then, as it may have been removed meanwhile. */
  const inTurn = (id: string, program: ProgramRun) =>
    Effect.flatMap(
      runner.held(id),
      () => permitsOf(id).withPermit(Effect.flatMap(runner.held(id), (sandbox) => runner.runIn(sandbox, program)))
    )

  const run = Effect.fn("SandboxProvider.run")(function*(id: string, command: RunCommand) {
    const timeoutMs = Math.min(Math.max(1, command.timeoutMs ?? limits.defaultTimeoutMs), limits.maxTimeoutMs)
    const result = yield* inTurn(id, {
      argv: { bashScript: command.command },
      timeoutMs,
      stdin: command.stdin,
      keep: { headBytes: limits.outputHeadBytes, tailBytes: limits.outputTailBytes },
      stopAfterBytes: limits.outputStopBytes
    })
    const failure = runner.startFailure(result)
    if (failure !== undefined) return yield* failure
    return commandResult(result, timeoutMs, limits.outputStopBytes)
  })

  const fileCommand = (id: string, script: string, path: string, stdin?: Uint8Array) =>
    inTurn(id, {
      argv: ["/bin/bash", "-c", script, "parley", path],
      timeoutMs: limits.defaultTimeoutMs,
      stdin,
      keep: { headBytes: FILE_LIMIT, tailBytes: 0 },
      stopAfterBytes: FILE_LIMIT
    })

  const readFile = Effect.fn("SandboxProvider.readFile")(function*(id: string, path: string) {
    const result = yield* fileCommand(id, `[ -e "$1" ] || exit 3; exec cat -- "$1"`, path)
    if (result.exitCode === 3) return null
    const { stderr, stdout } = bytesOf(result)
    if (result.exitCode !== 0 || result.outputLimited) {
      return yield* new SandboxFileError({
        message: result.outputLimited ? `${path} is over ${FILE_LIMIT} bytes` : stderr
      })
    }
    return new Uint8Array(stdout)
  })

  const writeFile = Effect.fn("SandboxProvider.writeFile")(function*(id: string, path: string, content: Uint8Array) {
    const result = yield* fileCommand(id, `mkdir -p -- "$(dirname -- "$1")" && exec cat > "$1"`, path, content)
    if (result.exitCode !== 0) return yield* new SandboxFileError({ message: bytesOf(result).stderr })
  })

  const desktop = Effect.fn("SandboxProvider.desktop")(function*(id: string, action: DesktopAction) {
    const info = yield* runner.held(id)
    if (!info.desktop) {
      return yield* new InvalidDesktopAction({
        message:
          `Sandbox ${id} has no desktop: create one with {"desktop": true} (or \`parley sandbox create --desktop\`)`
      })
    }
    const problem = checkAction(action, display)
    if (problem !== undefined) return yield* problem
    if (action.action === "wait") {
      yield* Effect.sleep(Math.round(action.seconds * 1000))
      return {}
    }
    const screenshot = action.action === "screenshot"
    const result = yield* inTurn(id, {
      argv: screenshot ? ["xwd", "-root", "-silent"] : ["xdotool", ...xdotoolArgs(action)!],
      timeoutMs: DESKTOP_ACTION_TIMEOUT_MS,
      keep: screenshot ? { headBytes: FILE_LIMIT, tailBytes: 0 } : { headBytes: 64 * 1024, tailBytes: 0 },
      stopAfterBytes: FILE_LIMIT
    })
    return yield* desktopResult(action, result)
  })

  return {
    run,
    readFile,
    writeFile,
    desktop,
    /** Forgets a removed sandbox's turns. */
    forget: (id: string) => void permits.delete(id)
  } satisfies Pick<SandboxBackend, "run" | "readFile" | "writeFile" | "desktop"> & { forget: unknown }
}
