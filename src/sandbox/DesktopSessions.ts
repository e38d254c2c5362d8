import { Deferred, Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import type { SandboxFolders } from "./folders.ts"
import { bwrapArgs, findInJail, hostIdentity, limitArgs } from "./jail.ts"
import type { HostPrograms } from "./runJailed.ts"
import { type DisplaySize, SandboxUnavailable } from "./Sandbox.ts"
import type { SandboxLimits } from "./SandboxSettings.ts"

/** A running desktop: Xvfb as the first program of a long-lived jail whose namespaces commands join. */
export interface DesktopSession {
  /** Host pid of the jail's init; its namespaces are the session's. */
  readonly pid: number
  readonly leader: ChildProcess
  lastUsed: number
}

const STARTUP_TIMEOUT_MS = 10_000

const stopLeader = (leader: ChildProcess) => {
  if (leader.pid === undefined || leader.exitCode !== null || leader.signalCode !== null) return
  try {
    process.kill(-leader.pid, "SIGKILL")
  } catch {
    // already gone
  }
}

// bwrap reports the jail's init pid on its info descriptor (fd 3) once the namespaces exist.
const readChildPid = (leader: ChildProcess): Promise<number> =>
  new Promise((resolve, reject) => {
    let text = ""
    const info = leader.stdio[3]
    if (info === null || info === undefined || !("on" in info)) return reject(new Error("no info descriptor"))
    info.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8")
    })
    info.on("end", () => {
      const pid = /"child-pid":\s*(\d+)/.exec(text)?.[1]
      return pid === undefined ? reject(new Error("bwrap did not report its child")) : resolve(Number(pid))
    })
  })

const waitForSocket = (socket: string, leader: ChildProcess, stderr: () => string): Promise<void> =>
  new Promise((resolve, reject) => {
    const started = Date.now()
    const poll = () => {
      if (existsSync(socket)) return resolve()
      if (leader.exitCode !== null || leader.signalCode !== null) {
        return reject(new Error(`the display server exited: ${stderr().trim() || "no message"}`))
      }
      if (Date.now() - started > STARTUP_TIMEOUT_MS) {
        return reject(new Error("the display server did not start within 10 s"))
      }
      setTimeout(poll, 20)
    }
    poll()
  })

/**
 * Starts, shares and stops the desktops of desktop sandboxes. One session
 * per sandbox; starting is shared by concurrent callers.
 */
export const makeDesktopSessions = (limits: SandboxLimits, display: DisplaySize) => {
  const running = new Map<string, DesktopSession>()
  const starting = new Map<string, Deferred.Deferred<DesktopSession, SandboxUnavailable>>()

  const start = (programs: HostPrograms, id: string, uid: number, folders: SandboxFolders, network: boolean) =>
    Effect.tryPromise({
      try: async () => {
        const xvfb = findInJail("Xvfb")
        if (xvfb === undefined) throw new Error("Xvfb is not installed: run `apt-get install xvfb xdotool x11-apps`")
        const socket = join(folders.x11, "X0")
        rmSync(socket, { force: true })
        const identity = hostIdentity(uid)
        const leader = spawn(programs.prlimit, [
          ...limitArgs(limits, { cpu: false }),
          "--",
          programs.bwrap,
          "--info-fd",
          "3",
          ...bwrapArgs({ workspace: folders.workspace, network, x11: folders.x11, tmpBytes: limits.memoryBytes }, [
            xvfb,
            ":0",
            "-screen",
            "0",
            `${display.width}x${display.height}x24`,
            // Only the socket in the sandbox's own folder: no TCP, and no abstract
            // socket, which a sandbox with network would share with the host.
            "-nolisten",
            "tcp",
            "-nolisten",
            "local"
          ])
        ], {
          stdio: ["ignore", "ignore", "pipe", "pipe"],
          detached: true,
          cwd: "/",
          env: {},
          ...(identity === undefined ? {} : identity)
        })
        let stderr = ""
        leader.stderr?.on("data", (chunk: Buffer) => {
          stderr = (stderr + chunk.toString("utf8")).slice(-2000)
        })
        leader.once("error", () => {}) // reported through the socket wait
        try {
          const pid = await readChildPid(leader)
          await waitForSocket(socket, leader, () => stderr)
          const session: DesktopSession = { pid, leader, lastUsed: Date.now() }
          leader.once("exit", () => {
            if (running.get(id) === session) running.delete(id)
          })
          return session
        } catch (error) {
          stopLeader(leader)
          throw error
        }
      },
      catch: (error) =>
        new SandboxUnavailable({
          message: `Could not start the desktop: ${error instanceof Error ? error.message : String(error)}`
        })
    })

  /** The sandbox's running desktop, started when it has none. */
  const ensure = (
    programs: HostPrograms,
    id: string,
    uid: number,
    folders: SandboxFolders,
    network: boolean
  ): Effect.Effect<DesktopSession, SandboxUnavailable> =>
    Effect.suspend(() => {
      const session = running.get(id)
      if (session !== undefined && session.leader.exitCode === null && session.leader.signalCode === null) {
        session.lastUsed = Date.now()
        return Effect.succeed(session)
      }
      const pending = starting.get(id)
      if (pending !== undefined) return Deferred.await(pending)
      return Effect.gen(function*() {
        const deferred = yield* Deferred.make<DesktopSession, SandboxUnavailable>()
        starting.set(id, deferred)
        const exit = yield* Effect.exit(start(programs, id, uid, folders, network))
        starting.delete(id)
        if (exit._tag === "Success") running.set(id, exit.value)
        yield* Deferred.done(deferred, exit)
        return yield* exit
      }).pipe(Effect.uninterruptible)
    })

  const stop = (id: string): Effect.Effect<void> =>
    Effect.sync(() => {
      const session = running.get(id)
      running.delete(id)
      if (session !== undefined) stopLeader(session.leader)
    })

  return {
    ensure,
    stop,
    /** Ids with a running desktop and when each was last used. */
    running: (): ReadonlyArray<readonly [string, number]> =>
      Array.from(running, ([id, session]) => [id, session.lastUsed] as const),
    stopAll: Effect.sync(() => {
      for (const session of running.values()) stopLeader(session.leader)
      running.clear()
    })
  }
}

export type DesktopSessions = ReturnType<typeof makeDesktopSessions>
