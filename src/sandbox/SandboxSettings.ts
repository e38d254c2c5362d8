import { resolve } from "node:path"
import packageJson from "../../package.json" with { type: "json" }
import { defaultInstanceId, defaultSandboxDir } from "../config/instanceId.ts"
import type { EngineAddress } from "../config/SandboxConfig.ts"
import type { DisplaySize, SandboxBackendName } from "./Sandbox.ts"

const MiB = 1024 * 1024

/** Per-process resource limits inside a jail (rlimits), and the output kept per command. */
export interface SandboxLimits {
  /** RLIMIT_CPU per process, seconds. */
  readonly cpuSeconds: number
  /**
   * `local`: RLIMIT_AS per process, and the size of each jail's /tmp and /dev/shm (tmpfs, host memory).
   * `docker`: the container's memory, all its processes and tmpfs together, no swap. Bytes.
   */
  readonly memoryBytes: number
  /**
   * The workspace's own filesystem, bytes (0: uncapped). `local`: an image only a root gateway can mount, or
   * a plain folder; `docker`: a tmpfs in the container's memory.
   */
  readonly diskBytes: number
  /** `docker`: CPUs one sandbox's processes share (the container's NanoCpus). */
  readonly cpus: number
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

/** The `docker` backend's engine and image. */
export interface DockerSettings {
  readonly engine: EngineAddress
  /** The image sandboxes start from (`PARLEY_SANDBOX_IMAGE`). */
  readonly image: string
}

export interface SandboxSettings {
  /** Where sandboxes live (`PARLEY_SANDBOX_BACKEND`). */
  readonly backend: SandboxBackendName
  readonly docker: DockerSettings
  /** A sandbox no request used this long is reclaimed; 0: never (`PARLEY_SANDBOX_IDLE`). */
  readonly idleMs: number
  /** How often idle sandboxes (and `docker` containers whose record is gone) are looked for. */
  readonly reclaimIntervalMs: number
  /** Absolute folder holding one folder per sandbox (its workspace and its X socket); `local` only. */
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
  cpus: 1,
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

/** `parley-sandbox:<package version>`: the image `npx parley sandbox image` builds. */
export const DEFAULT_IMAGE = `parley-sandbox:${packageJson.version}`

export const DEFAULT_ENGINE: EngineAddress = { host: "unix:///var/run/docker.sock", tlsVerify: false }

/** The settings with the defaults where `overrides` (the environment's `AppConfig.sandbox`, or a test's) leave a gap. */
export const makeSettings = (overrides: {
  readonly backend?: SandboxBackendName
  readonly image?: string
  readonly engine?: EngineAddress
  readonly idleMs?: number
  readonly reclaimIntervalMs?: number
  readonly root?: string
  readonly instance?: string
  readonly limits?: Partial<SandboxLimits>
  readonly display?: DisplaySize
  readonly desktopIdleMs?: number
  readonly sweepIntervalMs?: number
} = {}): SandboxSettings => ({
  backend: overrides.backend ?? "local",
  docker: { engine: overrides.engine ?? DEFAULT_ENGINE, image: overrides.image ?? DEFAULT_IMAGE },
  idleMs: overrides.idleMs ?? 24 * 3_600_000,
  reclaimIntervalMs: overrides.reclaimIntervalMs ?? 60_000,
  root: resolve(overrides.root ?? defaultSandboxDir),
  instance: overrides.instance ?? defaultInstanceId(overrides.root ?? defaultSandboxDir),
  limits: { ...defaultLimits, ...overrides.limits },
  display: overrides.display ?? { width: 1024, height: 768 },
  desktopIdleMs: overrides.desktopIdleMs ?? 15 * 60_000,
  sweepIntervalMs: overrides.sweepIntervalMs ?? 5_000
})
