import { Effect } from "effect"
import { closeSync, openSync } from "node:fs"
import type { SandboxFolders } from "./folders.ts"
import { bwrapArgs, findOnHost, hostIdentity, limitArgs } from "./jail.ts"
import { type ProcessResult, runProcess, scriptFd } from "./runProcess.ts"
import { SandboxUnavailable } from "./Sandbox.ts"
import type { SandboxLimits } from "./SandboxSettings.ts"

/** The host programs the local backend drives. */
export interface HostPrograms {
  readonly bwrap: string
  readonly prlimit: string
}

export const findHostPrograms: Effect.Effect<HostPrograms, SandboxUnavailable> = Effect.suspend(() => {
  const bwrap = findOnHost("bwrap")
  const prlimit = findOnHost("prlimit")
  if (bwrap === undefined) {
    return Effect.fail(
      new SandboxUnavailable({ message: "bubblewrap is not installed: run `apt-get install bubblewrap`" })
    )
  }
  if (prlimit === undefined) {
    return Effect.fail(
      new SandboxUnavailable({ message: "prlimit is not installed: run `apt-get install util-linux`" })
    )
  }
  return Effect.succeed({ bwrap, prlimit })
})

export interface JailedCommand {
  /** The sandbox's host user (`SandboxInfo.uid`). */
  readonly uid: number
  readonly folders: SandboxFolders
  readonly network: boolean
  /** Bind the sandbox's X socket folder and set DISPLAY. */
  readonly display: boolean
  /** Host pid of a running desktop session to join (its namespaces), if any. */
  readonly sessionPid?: number | undefined
  /** A program and its arguments, or a bash script (of any length: it arrives on a pipe, not as an argument). */
  readonly argv: ReadonlyArray<string> | { readonly bashScript: string }
  readonly timeoutMs: number
  readonly stdin?: Uint8Array | undefined
  readonly keep: { readonly headBytes: number; readonly tailBytes: number }
  readonly stopAfterBytes: number
}

const openNamespaces = (pid: number) =>
  Effect.try({
    try: () => {
      const user = openSync(`/proc/${pid}/ns/user`, "r")
      try {
        return [user, openSync(`/proc/${pid}/ns/pid`, "r")] as const
      } catch (error) {
        closeSync(user)
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
    joinSession: command.sessionPid !== undefined
  }
  const { argv } = command
  const script = "bashScript" in argv ? new TextEncoder().encode(argv.bashScript) : undefined
  const run = (fds: ReadonlyArray<number>) =>
    runProcess({
      file: programs.prlimit,
      args: [
        ...limitArgs(limits, { cpu: true }),
        "--",
        programs.bwrap,
        ...bwrapArgs(jail, "bashScript" in argv ? readScript(scriptFd(fds)) : argv)
      ],
      identity: hostIdentity(command.uid),
      stdin: command.stdin,
      script,
      fds,
      timeoutMs: command.timeoutMs,
      keep: command.keep,
      stopAfterBytes: command.stopAfterBytes
    })
  if (command.sessionPid === undefined) return run([])
  return Effect.acquireUseRelease(
    openNamespaces(command.sessionPid),
    run,
    (fds) => Effect.sync(() => fds.forEach((fd) => closeSync(fd)))
  )
}
