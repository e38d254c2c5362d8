import { spawn } from "node:child_process"
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"

/**
 * Which process of an instance runs a sandbox's desktop. The workers of one
 * instance (`parley serve --workers N`) share the sandbox's folder, not their
 * memory, so the folder says it: the process that starts a desktop holds an
 * exclusive flock on `<sandbox>/desktop.lock` for as long as the display
 * server runs (the kernel drops it when that process closes it or dies), and
 * writes the desktop's jail to `<sandbox>/desktop.json`, whose time of last
 * change is the desktop's last use. The other processes join that jail. The
 * sandbox's own programs reach neither file.
 */

/** A running desktop's jail: the host pid of its init, whose namespaces commands join, and when it started. */
export interface DesktopJail {
  readonly pid: number
  readonly start: string
}

export interface ClaimFiles {
  readonly lock: string
  readonly record: string
}

/**
 * When process `pid` started (field 22 of /proc/<pid>/stat, in clock ticks
 * since boot), or undefined when it is not running: with it a pid names one
 * process, not whichever later gets the same number. A killed jail's init may
 * stay a zombie until it is reaped, and its namespaces take no new process.
 */
export const startOf = (pid: number): string | undefined => {
  try {
    // The command (field 2) may hold spaces and parentheses: fields are counted after its last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return fields[0] === "Z" || fields[0] === "X" ? undefined : fields[19]
  } catch {
    return undefined
  }
}

export const isRunning = (jail: DesktopJail): boolean => startOf(jail.pid) === jail.start

/**
 * Takes the lock without waiting: the open descriptor holding it (the lock
 * lasts until it is closed), or undefined when another process holds it.
 * Node has no flock of its own; util-linux's `flock` takes it on our
 * descriptor, which it shares as its stdin.
 */
export const tryLock = (flock: string, files: ClaimFiles): Promise<number | undefined> =>
  new Promise((resolve, reject) => {
    const fd = openSync(files.lock, "a", 0o600)
    let settled = false
    const settle = (held: boolean, error?: Error) => {
      if (settled) return
      settled = true
      if (!held) closeSync(fd)
      return error === undefined ? resolve(held ? fd : undefined) : reject(error)
    }
    const child = spawn(flock, ["--exclusive", "--nonblock", "0"], { stdio: [fd, "ignore", "pipe"], env: {} })
    let stderr = ""
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.once("error", (error) => settle(false, error))
    // flock answers 1 when another holds the lock; anything else is a failure of its own.
    child.once("close", (code) =>
      code === 0 || code === 1
        ? settle(code === 0)
        : settle(false, new Error(`flock failed: ${stderr.trim() || `exit code ${code}`}`)))
  })

/** The desktop the record names, whether or not it still runs; undefined when there is no readable record. */
export const readRecord = (files: ClaimFiles): DesktopJail | undefined => {
  try {
    const { pid, start } = JSON.parse(readFileSync(files.record, "utf8"))
    return Number.isSafeInteger(pid) && pid > 1 && typeof start === "string" ? { pid, start } : undefined
  } catch {
    return undefined
  }
}

/** Written whole, then renamed over the old one: a reader sees one record or the other, never part of one. */
export const writeRecord = (files: ClaimFiles, jail: DesktopJail): void => {
  const next = `${files.record}.next`
  writeFileSync(next, JSON.stringify(jail), { mode: 0o600 })
  renameSync(next, files.record)
}

export const removeRecord = (files: ClaimFiles): void => rmSync(files.record, { force: true })

/** Marks the desktop used now, for whichever process runs it. */
export const touchRecord = (files: ClaimFiles): void => {
  try {
    const now = new Date()
    utimesSync(files.record, now, now)
  } catch {
    // no record: the desktop is stopping or its sandbox is being removed
  }
}

/** When the desktop was last used (by any process), or 0 when its record is gone. */
export const lastUsedOf = (files: ClaimFiles): number => {
  try {
    return statSync(files.record).mtimeMs
  } catch {
    return 0
  }
}
