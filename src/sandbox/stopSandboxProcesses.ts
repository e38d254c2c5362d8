import { Effect } from "effect"
import { readdir, readFile } from "node:fs/promises"

const pidsWith = async (marker: string): Promise<ReadonlyArray<number>> => {
  const names = await readdir("/proc").catch(() => [])
  const found = await Promise.all(
    names.filter((name) => /^\d+$/.test(name)).map(async (name) => {
      const cmdline = await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "")
      return cmdline.includes(marker) ? [Number(name)] : []
    })
  )
  return found.flat().filter((pid) => pid !== process.pid)
}

const kill = (pid: number) => {
  try {
    process.kill(pid, "SIGKILL")
  } catch {
    // gone already
  }
}

/**
 * Kills every jail of a sandbox, whichever process started it (the server,
 * or the CLI's `sandbox rm` stopping the server's commands). Each jail's
 * bubblewrap names the sandbox's folder on its command line; killing it
 * ends the jail's pid namespace and so everything the command started,
 * background programs and desktops included. Returns once none is left
 * (or after `timeoutMs`).
 */
export const stopSandboxProcesses = (sandboxFolder: string, timeoutMs = 3_000): Effect.Effect<void> =>
  Effect.promise(async () => {
    const marker = `${sandboxFolder}/`
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const pids = await pidsWith(marker)
      if (pids.length === 0 || Date.now() > deadline) return
      pids.forEach(kill)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })
