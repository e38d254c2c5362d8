import { Deferred, Effect } from "effect"
import { closeSync } from "node:fs"
import {
  type ClaimFiles,
  type DesktopJail,
  isRunning,
  lastUsedOf,
  readRecord,
  removeRecord,
  touchRecord,
  tryLock,
  writeRecord
} from "./desktopClaim.ts"
import { type DisplayServer, startDisplayServer, STARTUP_TIMEOUT_MS, stopLeader } from "./displayServer.ts"
import type { SandboxFolders } from "./folders.ts"
import type { HostPrograms } from "./runJailed.ts"
import { type DisplaySize, SandboxUnavailable } from "./Sandbox.ts"
import type { SandboxLimits } from "./SandboxSettings.ts"

// Another process's desktop is awaited as long as it may take to start, and a little more.
const AWAIT_OTHER_MS = STARTUP_TIMEOUT_MS + 5_000
const RETRY_MS = 50

interface OwnedDesktop extends DisplayServer {
  readonly files: ClaimFiles
}

interface Sandbox {
  readonly id: string
  readonly uid: number
  readonly folders: SandboxFolders
  readonly network: boolean
}

/**
 * Starts, shares and stops the desktops of desktop sandboxes: one per
 * sandbox across the processes of an instance (desktopClaim.ts). A process
 * joins the desktop another runs, or starts one when none runs; starting is
 * shared by the concurrent callers of one process. A desktop lives as long as
 * the process that started it, which alone stops it when idle (deleting the
 * sandbox kills its jails, whoever started them).
 */
export const makeDesktopSessions = (limits: SandboxLimits, display: DisplaySize) => {
  /** The desktops this process started. */
  const owned = new Map<string, OwnedDesktop>()
  /** The desktop each sandbox used here runs in, this process's own or another's. */
  const known = new Map<string, DesktopJail>()
  const starting = new Map<string, Deferred.Deferred<DesktopJail, SandboxUnavailable>>()
  /** Actions under way here, by sandbox: a desktop is not idle while one runs, however long it takes. */
  const inUse = new Map<string, number>()

  // Called with the sandbox's lock held: it is released when the display server ends, or at once if it fails.
  const own = async (programs: HostPrograms, sandbox: Sandbox, lock: number): Promise<DesktopJail> => {
    const files = sandbox.folders.desktop
    let held = true
    const release = () => {
      if (held) closeSync(lock)
      held = false
    }
    let desktop: OwnedDesktop | undefined
    const ended = () => {
      release()
      if (desktop !== undefined && owned.get(sandbox.id) === desktop) owned.delete(sandbox.id)
      if (desktop !== undefined && known.get(sandbox.id) === desktop.jail) known.delete(sandbox.id)
    }
    try {
      removeRecord(files)
      const server = await startDisplayServer(programs, limits, display, sandbox, ended)
      try {
        writeRecord(files, server.jail)
      } catch (error) {
        stopLeader(server.leader)
        throw error
      }
      desktop = { ...server, files }
      owned.set(sandbox.id, desktop)
      return server.jail
    } catch (error) {
      release()
      throw error
    }
  }

  // The sandbox's desktop, whichever process runs it: joined when one runs, started when none does.
  const find = (programs: HostPrograms, sandbox: Sandbox) =>
    Effect.tryPromise({
      try: async () => {
        const files = sandbox.folders.desktop
        const deadline = Date.now() + AWAIT_OTHER_MS
        for (;;) {
          const recorded = readRecord(files)
          if (recorded !== undefined && isRunning(recorded)) {
            touchRecord(files)
            return recorded
          }
          const lock = await tryLock(programs.flock, files)
          if (lock !== undefined) return await own(programs, sandbox, lock)
          // Another process holds the lock: its desktop is starting, or stopping.
          if (Date.now() > deadline) {
            throw new Error(`another process is starting it and it did not start within ${AWAIT_OTHER_MS / 1000} s`)
          }
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
        }
      },
      catch: (error) =>
        new SandboxUnavailable({
          message: `Could not start the desktop: ${error instanceof Error ? error.message : String(error)}`
        })
    })

  /** The jail of the sandbox's running desktop, started when none runs; marks the desktop used. */
  const ensure = (programs: HostPrograms, sandbox: Sandbox): Effect.Effect<DesktopJail, SandboxUnavailable> =>
    Effect.suspend(() => {
      const jail = known.get(sandbox.id)
      if (jail !== undefined && isRunning(jail)) {
        touchRecord(sandbox.folders.desktop)
        return Effect.succeed(jail)
      }
      const pending = starting.get(sandbox.id)
      if (pending !== undefined) return Deferred.await(pending)
      return Effect.gen(function*() {
        const deferred = yield* Deferred.make<DesktopJail, SandboxUnavailable>()
        starting.set(sandbox.id, deferred)
        const exit = yield* Effect.exit(find(programs, sandbox))
        starting.delete(sandbox.id)
        if (exit._tag === "Success") known.set(sandbox.id, exit.value)
        yield* Deferred.done(deferred, exit)
        return yield* exit
      }).pipe(Effect.uninterruptible)
    })

  /**
   * Runs `action` in the sandbox's desktop (`ensure`); while it runs the
   * desktop is not idle here, and its end counts as a use, so a long action
   * is not stopped under itself nor idle the moment it ends.
   */
  const use = <A, E, R>(
    programs: HostPrograms,
    sandbox: Sandbox,
    action: (jail: DesktopJail) => Effect.Effect<A, E, R>
  ): Effect.Effect<A, E | SandboxUnavailable, R> =>
    Effect.acquireUseRelease(
      Effect.tap(ensure(programs, sandbox), () =>
        Effect.sync(() => inUse.set(sandbox.id, (inUse.get(sandbox.id) ?? 0) + 1))),
      action,
      () =>
        Effect.sync(() => {
          const left = (inUse.get(sandbox.id) ?? 1) - 1
          if (left > 0) {
            inUse.set(sandbox.id, left)
          } else inUse.delete(sandbox.id)
          touchRecord(sandbox.folders.desktop)
        })
    )

  /** Stops the sandbox's desktop if this process runs it; forgets it either way. */
  const stop = (id: string): Effect.Effect<void> =>
    Effect.sync(() => {
      known.delete(id)
      const desktop = owned.get(id)
      owned.delete(id)
      if (desktop !== undefined) stopLeader(desktop.leader)
    })

  return {
    use,
    stop,
    /** Ids of the desktops this process runs and when each was last used, through any process (now, if in use here). */
    running: (): ReadonlyArray<readonly [string, number]> =>
      Array.from(owned, ([id, desktop]) => [id, inUse.has(id) ? Date.now() : lastUsedOf(desktop.files)] as const),
    stopAll: Effect.sync(() => {
      for (const desktop of owned.values()) stopLeader(desktop.leader)
      owned.clear()
      known.clear()
    })
  }
}

export type DesktopSessions = ReturnType<typeof makeDesktopSessions>
