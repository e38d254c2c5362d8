import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { type DesktopJail, startOf } from "./desktopClaim.ts"
import type { SandboxFolders } from "./folders.ts"
import { bwrapArgs, findInJail, hostIdentity, limitArgs } from "./jail.ts"
import type { HostPrograms } from "./runJailed.ts"
import type { DisplaySize } from "./Sandbox.ts"
import type { SandboxLimits } from "./SandboxSettings.ts"

/** A desktop's display server: Xvfb as the first program of a long-lived jail whose namespaces commands join. */
export interface DisplayServer {
  readonly jail: DesktopJail
  /** The jail's bubblewrap, leading its own process group. */
  readonly leader: ChildProcess
}

export const STARTUP_TIMEOUT_MS = 10_000

/** Kills the jail: its bubblewrap's process group, Xvfb and whatever commands left running there. */
export const stopLeader = (leader: ChildProcess) => {
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
 * Starts the sandbox's display server, resolving once it accepts clients;
 * `onExit` runs when its jail ends. Only the process holding the sandbox's
 * desktop lock calls it (desktopClaim.ts): it replaces the X socket.
 */
export const startDisplayServer = async (
  programs: HostPrograms,
  limits: SandboxLimits,
  display: DisplaySize,
  sandbox: { readonly uid: number; readonly folders: SandboxFolders; readonly network: boolean },
  onExit: () => void
): Promise<DisplayServer> => {
  const { folders } = sandbox
  const xvfb = findInJail("Xvfb")
  if (xvfb === undefined) throw new Error("Xvfb is not installed: run `apt-get install xvfb xdotool x11-apps`")
  const socket = join(folders.x11, "X0")
  rmSync(socket, { force: true })
  const identity = hostIdentity(sandbox.uid)
  const jail = {
    workspace: folders.workspace,
    network: sandbox.network,
    x11: folders.x11,
    tmpBytes: limits.memoryBytes
  }
  const leader = spawn(programs.prlimit, [
    ...limitArgs(limits, { cpu: false }),
    "--",
    programs.bwrap,
    "--info-fd",
    "3",
    ...bwrapArgs(jail, [
      xvfb,
      ":0",
      "-screen",
      "0",
      `${display.width}x${display.height}x24`,
      // Every desktop action is a short-lived client: without this the server
      // resets whenever the last one leaves, and the pointer jumps to the centre.
      "-noreset",
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
  leader.once("exit", onExit)
  let stderr = ""
  leader.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-2000)
  })
  leader.once("error", () => {}) // reported through the socket wait
  try {
    const pid = await readChildPid(leader)
    const start = startOf(pid)
    if (start === undefined) throw new Error("the display server's jail ended at once")
    await waitForSocket(socket, leader, () => stderr)
    return { jail: { pid, start }, leader }
  } catch (error) {
    stopLeader(leader)
    throw error
  }
}
