import { Effect } from "effect"
import { closeSync, openSync } from "node:fs"
import { type DesktopJail, isRunning } from "./desktopClaim.ts"
import type { SandboxFolders } from "./folders.ts"
import { bwrapArgs, findOnHost, hostIdentity, limitArgs } from "./jail.ts"
import { joinGateArgs, openJoinGate } from "./joinGate.ts"
import { extraFd, type ProcessResult, runProcess, scriptFd } from "./runProcess.ts"
import { SandboxUnavailable } from "./Sandbox.ts"
import type { SandboxLimits } from "./SandboxSettings.ts"

/** The host programs the local backend drives. */
export interface HostPrograms {
  readonly bwrap: string
  readonly prlimit: string
  /** For the desktop lock (desktopClaim.ts); util-linux, as prlimit. */
  readonly flock: string
}

export const findHostPrograms: Effect.Effect<HostPrograms, SandboxUnavailable> = Effect.suspend(() => {
  const bwrap = findOnHost("bwrap")
  const prlimit = findOnHost("prlimit")
  const flock = findOnHost("flock")
  if (bwrap === undefined) {
    return Effect.fail(
      new SandboxUnavailable({ message: "bubblewrap is not installed: run `apt-get install bubblewrap`" })
    )
  }
  if (prlimit === undefined || flock === undefined) {
    return Effect.fail(
      new SandboxUnavailable({
        message: `${prlimit === undefined ? "prlimit" : "flock"} is not installed: run \`apt-get install util-linux\``
      })
    )
  }
  return Effect.succeed({ bwrap, prlimit, flock })
})

export interface JailedCommand {
  /** The sandbox's host user (`SandboxInfo.uid`). */
  readonly uid: number
  readonly folders: SandboxFolders
  readonly network: boolean
  /** Bind the sandbox's X socket folder and set DISPLAY. */
  readonly display: boolean
  /** A running desktop's jail to join (its namespaces), if any. */
  readonly session?: DesktopJail | undefined
  /** A program and its arguments, or a bash script (of any length: it arrives on a pipe, not as an argument). */
  readonly argv: ReadonlyArray<string> | { readonly bashScript: string }
  readonly timeoutMs: number
  readonly stdin?: Uint8Array | undefined
  readonly keep: { readonly headBytes: number; readonly tailBytes: number }
  readonly stopAfterBytes: number
}

// Checked once they are open: were the pid reused meanwhile, they would be another process's.
const openNamespaces = (jail: DesktopJail) =>
  Effect.try({
    try: () => {
      const fds: Array<number> = []
      try {
        fds.push(openSync(`/proc/${jail.pid}/ns/user`, "r"))
        fds.push(openSync(`/proc/${jail.pid}/ns/pid`, "r"))
        if (!isRunning(jail)) throw new Error("the desktop's jail ended")
        return fds
      } catch (error) {
        fds.forEach((fd) => closeSync(fd))
        throw error
      }
    },
    catch: () => new SandboxUnavailable({ message: "The sandbox's desktop stopped" })
  })

// Read whole, then the pipe closed and the script run as `bash -c` would run it (same $0, line numbers, exit code).
const readScript = (fd: number) => ["/bin/bash", "-c", `c=$(cat <&${fd}) && exec ${fd}<&- && eval "$c"`]

/** Runs one command in a fresh jail of the sandbox, under the sandbox's limits. */
export const runJailed = (
  programs: HostPrograms,
  limits: SandboxLimits,
  command: JailedCommand
): Effect.Effect<ProcessResult, SandboxUnavailable> => {
  const jail = {
    workspace: command.folders.workspace,
    network: command.network,
    tmpBytes: limits.memoryBytes,
    x11: command.display ? command.folders.x11 : undefined,
    joinSession: command.session !== undefined
  }
  const { argv } = command
  const script = "bashScript" in argv ? new TextEncoder().encode(argv.bashScript) : undefined
  const run = (fds: ReadonlyArray<number>) => {
    // Joining a desktop, the command waits for the gateway before it starts (joinGate.ts).
    const gate = command.session === undefined
      ? undefined
      : { info: extraFd(fds, script), block: extraFd(fds, script) + 1 }
    return runProcess({
      file: programs.prlimit,
      args: [
        ...limitArgs(limits, { cpu: true }),
        "--",
        programs.bwrap,
        ...(gate === undefined ? [] : joinGateArgs(gate)),
        ...bwrapArgs(jail, "bashScript" in argv ? readScript(scriptFd(fds)) : argv)
      ],
      identity: hostIdentity(command.uid),
      stdin: command.stdin,
      script,
      fds,
      extraPipes: gate === undefined ? undefined : { count: 2, onSpawn: (child) => openJoinGate(child, gate) },
      timeoutMs: command.timeoutMs,
      keep: command.keep,
      stopAfterBytes: command.stopAfterBytes
    })
  }
  if (command.session === undefined) return run([])
  return Effect.acquireUseRelease(
    openNamespaces(command.session),
    run,
    (fds) => Effect.sync(() => fds.forEach((fd) => closeSync(fd)))
  )
}
