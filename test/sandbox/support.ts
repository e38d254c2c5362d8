import { Layer } from "effect"
import { chmodSync, mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { makeSettings, type SandboxLimits } from "../../src/sandbox/SandboxSettings.ts"
import { SandboxStore } from "../../src/sandbox/SandboxStore.ts"
import * as Database from "../../src/store/Database.ts"

/**
 * A data directory for a test, laid out as in production (`data/parley.db`
 * beside `data/sandboxes`). Sandboxes run as other users, so the folders on
 * the way must be passable (mkdtemp makes them 0700).
 */
export const dataDirectory = (): { readonly base: string; readonly data: string; readonly sandboxes: string } => {
  const base = mkdtempSync(join(tmpdir(), "parley-sandbox-"))
  chmodSync(base, 0o711)
  return { base, data: join(base, "data"), sandboxes: join(base, "data", "sandboxes") }
}

/** Small limits keep the containment tests quick and light on this machine. */
export const testLimits: Partial<SandboxLimits> = {
  memoryBytes: 256 * 1024 * 1024,
  processes: 64,
  cpuSeconds: 20,
  outputHeadBytes: 4096,
  outputTailBytes: 4096,
  outputStopBytes: 1024 * 1024,
  defaultTimeoutMs: 15_000
}

/** The database beside the sandbox folder, as in production: every layer on one root shares its records. */
const databaseOf = (root: string) => Database.layerFromUrl(`sqlite:${join(dirname(root), "parley.db")}`)

export const testSandboxes = (
  root: string,
  overrides: Partial<SandboxLimits> = {},
  desktops: { readonly desktopIdleMs?: number; readonly sweepIntervalMs?: number } = {}
) =>
  SandboxProvider.layerTest({ root, limits: { ...testLimits, ...overrides }, sweepIntervalMs: 500, ...desktops }).pipe(
    Layer.provide(databaseOf(root))
  )

/** The records `testSandboxes(root)` keeps, for tests that change them behind its back (as the CLI would). */
export const testStore = (root: string) =>
  SandboxStore.layer(makeSettings({ root })).pipe(Layer.provide(databaseOf(root)))

/** Host pids of processes whose command line contains `marker` (a process forked from a marked one keeps it). */
export const processesWith = (marker: string): ReadonlyArray<number> =>
  readdirSync("/proc").filter((name) => /^\d+$/.test(name)).flatMap((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker) && Number(pid) !== process.pid
        ? [Number(pid)]
        : []
    } catch {
      return []
    }
  })

/**
 * `script` run so that its processes carry `marker` on their command line
 * (as bash's $0) for `processesWith`: a sandbox command itself arrives on a
 * pipe, not as an argument.
 */
export const marked = (marker: string, script: string): string =>
  `exec /bin/bash -c '${script.replaceAll("'", `'\\''`)}' ${marker}`

/** Polls until `check` holds or `timeoutMs` passes; returns whether it held. */
export const eventually = async (check: () => boolean, timeoutMs: number, intervalMs = 20): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
  return check()
}

/** The parent of process `pid` (field 4 of /proc/<pid>/stat), or undefined once it is gone. */
export const parentOf = (pid: number): number | undefined => {
  try {
    // The command (field 2) may hold spaces, so split after it.
    return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1])
  } catch {
    return undefined
  }
}

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8")
  } catch {
    return ""
  }
}

/** Host pids of the display servers (Xvfb) whose jail names `sandboxFolder` (an ancestor's command line does). */
export const displayServersOf = (sandboxFolder: string): ReadonlyArray<number> =>
  readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    if (!commandOf(pid).split("\0")[0]!.endsWith("/Xvfb")) return false
    for (let up = parentOf(pid); up !== undefined && up > 1; up = parentOf(up)) {
      if (commandOf(up).includes(`${sandboxFolder}/`)) return true
    }
    return false
  })
