import type { ChildProcess } from "node:child_process"
import { readFileSync } from "node:fs"
import type { Readable, Writable } from "node:stream"

/**
 * Holds a command that joins a desktop back until bubblewrap's throwaway
 * process is gone. To enter the desktop's pid namespace, bubblewrap (0.4 to
 * at least 0.11) forks an intermediate that forks the command's process and
 * exits at once. With `--die-with-parent`, that process arms PR_SET_PDEATHSIG
 * just before it executes the command, against whichever parent it has
 * then: if the intermediate has not finished exiting by that time (a busy
 * machine preempts it for a few milliseconds while the command's side sets
 * up its mounts), its exit SIGKILLs the command: exit code 137, no output or
 * part of it, nothing on stderr. So bubblewrap reports the process
 * (`--info-fd`) and waits on `--block-fd` before that point, and the gateway
 * lets it go on once the intermediate has exited and the kernel has handed
 * the process to bubblewrap itself (a subreaper), whose death is the one
 * that should kill it.
 */

export interface JoinGateFds {
  /** bubblewrap writes its JSON info here (the command's host pid as "child-pid"). */
  readonly info: number
  /** bubblewrap's command waits here until the gateway writes. */
  readonly block: number
}

export const joinGateArgs = (fds: JoinGateFds): ReadonlyArray<string> => [
  "--info-fd",
  String(fds.info),
  "--block-fd",
  String(fds.block)
]

const POLL_MS = 2
// Never a hang where there was a race: should the info not end (a bubblewrap unlike 0.4 to 0.11), it goes on.
const FALLBACK_MS = 5_000
// PF_EXITING in /proc/<pid>/stat's flags (field 9): the process is in exit(), its children not yet handed on.
const PF_EXITING = 0x4

/** Field 4 (parent) and 9 (flags) of /proc/<pid>/stat, or undefined once it is gone (or a zombie). */
const statOf = (pid: number): { readonly parent: number; readonly exiting: boolean } | undefined => {
  try {
    // The command (field 2) may hold spaces and parentheses: fields are counted after its last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    if (fields[0] === "Z" || fields[0] === "X") return undefined
    return { parent: Number(fields[1]), exiting: (Number(fields[6]) & PF_EXITING) !== 0 }
  } catch {
    return undefined
  }
}

/** Lets the command of the bubblewrap spawned with `joinGateArgs` go on once the intermediate has exited. */
export const openJoinGate = (bwrap: ChildProcess, fds: JoinGateFds): void => {
  const info = bwrap.stdio[fds.info] as Readable | null | undefined
  const block = bwrap.stdio[fds.block] as Writable | null | undefined
  if (info === null || info === undefined || block === null || block === undefined) return
  block.on("error", () => {}) // bubblewrap may exit without reading it (it failed, or was killed)
  let opened = false
  const open = () => {
    if (opened) return
    opened = true
    clearTimeout(fallback)
    block.end("1")
  }
  const fallback = setTimeout(open, FALLBACK_MS)
  let text = ""
  info.on("error", () => {})
  info.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
  // The info ends once every holder has closed it, the intermediate included: it is in exit() or gone. Exiting,
  // it is still the command's parent until the kernel hands its children on, so that is awaited too.
  info.on("end", () => {
    const pid = Number(/"child-pid":\s*(\d+)/.exec(text)?.[1])
    if (!Number.isSafeInteger(pid) || pid <= 0) return open() // bubblewrap failed first; it reports why
    const poll = () => {
      const parent = statOf(pid)?.parent
      const exiting = parent !== undefined && statOf(parent)?.exiting === true
      if (!exiting || opened || bwrap.exitCode !== null || bwrap.signalCode !== null) return open()
      setTimeout(poll, POLL_MS)
    }
    poll()
  })
}
