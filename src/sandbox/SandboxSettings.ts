import { resolve } from "node:path"
import { defaultInstanceId, defaultSandboxDir } from "../config/instanceId.ts"
import type { DisplaySize } from "./Sandbox.ts"

const MiB = 1024 * 1024

/** Per-process resource limits inside a jail (rlimits), and the output kept per command. */
export interface SandboxLimits {
  /** RLIMIT_CPU per process, seconds. */
  readonly cpuSeconds: number
  /** RLIMIT_AS per process, and the size of each jail's /tmp and /dev/shm (tmpfs, host memory), bytes. */
  readonly memoryBytes: number
  /** The workspace's own filesystem, bytes (0: a plain folder, uncapped); only a root gateway can mount one. */
  readonly diskBytes: number
  /** Commands of one sandbox running at once; the rest wait their turn. */
  readonly commandsAtOnce: number
  /** RLIMIT_NPROC: processes of one sandbox at once. */
  readonly processes: number
  /** RLIMIT_FSIZE: largest file a sandbox may write, bytes. */
  readonly fileSizeBytes: number
  readonly openFiles: number
  /** Kept of each stream: this many bytes from its start and as many from its end. */
  readonly outputHeadBytes: number
  readonly outputTailBytes: number
  /** A command that writes more than this in total is stopped. */
  readonly outputStopBytes: number
  readonly defaultTimeoutMs: number
  readonly maxTimeoutMs: number
}

export interface SandboxSettings {
  /** Absolute folder holding one folder per sandbox (its workspace and its X socket). */
  readonly root: string
  /** This instance (`PARLEY_INSTANCE_ID`): sandboxes record it, and only this one may use those it created. */
  readonly instance: string
  readonly limits: SandboxLimits
  readonly display: DisplaySize
  /** A desktop unused this long is stopped (its next use starts a fresh one). */
  readonly desktopIdleMs: number
  /** How often running desktops are checked against the store and the idle limit. */
  readonly sweepIntervalMs: number
}

export const defaultLimits: SandboxLimits = {
  cpuSeconds: 120,
  memoryBytes: 1024 * MiB,
  diskBytes: 4096 * MiB,
  commandsAtOnce: 8,
  processes: 256,
  fileSizeBytes: 256 * MiB,
  openFiles: 1024,
  outputHeadBytes: 16 * 1024,
  outputTailBytes: 16 * 1024,
  outputStopBytes: 16 * MiB,
  defaultTimeoutMs: 60_000,
  maxTimeoutMs: 300_000
}

/** The settings with the defaults where `overrides` (the environment's `AppConfig.sandbox`, or a test's) leave a gap. */
export const makeSettings = (overrides: {
  readonly root?: string
  readonly instance?: string
  readonly limits?: Partial<SandboxLimits>
  readonly display?: DisplaySize
  readonly desktopIdleMs?: number
  readonly sweepIntervalMs?: number
} = {}): SandboxSettings => ({
  root: resolve(overrides.root ?? defaultSandboxDir),
  instance: overrides.instance ?? defaultInstanceId(overrides.root ?? defaultSandboxDir),
  limits: { ...defaultLimits, ...overrides.limits },
  display: overrides.display ?? { width: 1024, height: 768 },
  desktopIdleMs: overrides.desktopIdleMs ?? 15 * 60_000,
  sweepIntervalMs: overrides.sweepIntervalMs ?? 5_000
})
