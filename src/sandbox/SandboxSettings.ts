import { Config, Effect, Schema } from "effect"
import { resolve } from "node:path"
import type { DisplaySize } from "./Sandbox.ts"

const MiB = 1024 * 1024

/** Per-process resource limits inside a jail (rlimits), and the output kept per command. */
export interface SandboxLimits {
  /** RLIMIT_CPU per process, seconds. */
  readonly cpuSeconds: number
  /** RLIMIT_AS per process, bytes. */
  readonly memoryBytes: number
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
  processes: 256,
  fileSizeBytes: 256 * MiB,
  openFiles: 1024,
  outputHeadBytes: 16 * 1024,
  outputTailBytes: 16 * 1024,
  outputStopBytes: 16 * MiB,
  defaultTimeoutMs: 60_000,
  maxTimeoutMs: 300_000
}

export const defaultSandboxDir = "./data/sandboxes"

export const makeSettings = (overrides: {
  readonly root?: string
  readonly limits?: Partial<SandboxLimits>
  readonly display?: DisplaySize
  readonly desktopIdleMs?: number
  readonly sweepIntervalMs?: number
} = {}): SandboxSettings => ({
  root: resolve(overrides.root ?? defaultSandboxDir),
  limits: { ...defaultLimits, ...overrides.limits },
  display: overrides.display ?? { width: 1024, height: 768 },
  desktopIdleMs: overrides.desktopIdleMs ?? 15 * 60_000,
  sweepIntervalMs: overrides.sweepIntervalMs ?? 5_000
})

const positive = (name: string) => Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), name)

const bytes = (name: string) =>
  positive(name).pipe(Config.orElse(() => Config.ByteSize(name).pipe(Config.map(Number))))

const displaySize = Config.schema(
  Schema.String.check(Schema.isPattern(/^\d{3,4}x\d{3,4}$/, { message: "must look like 1024x768" })),
  "PARLEY_SANDBOX_DISPLAY"
).pipe(Config.map((text): DisplaySize => {
  const [width, height] = text.split("x").map(Number)
  return { width: width ?? 0, height: height ?? 0 }
}))

/**
 * Settings from the environment: `PARLEY_SANDBOX_DIR` (default
 * `./data/sandboxes`), `PARLEY_SANDBOX_MEMORY` (bytes per process, `1GiB`),
 * `PARLEY_SANDBOX_PROCESSES` (256), `PARLEY_SANDBOX_CPU_SECONDS` (120 per
 * process), `PARLEY_SANDBOX_DISPLAY` (`1024x768`).
 */
export const settingsFromEnv = Effect.gen(function*() {
  const root = yield* Config.String("PARLEY_SANDBOX_DIR").pipe(Config.withDefault(defaultSandboxDir))
  const memoryBytes = yield* bytes("PARLEY_SANDBOX_MEMORY").pipe(Config.withDefault(defaultLimits.memoryBytes))
  const processes = yield* positive("PARLEY_SANDBOX_PROCESSES").pipe(Config.withDefault(defaultLimits.processes))
  const cpuSeconds = yield* positive("PARLEY_SANDBOX_CPU_SECONDS").pipe(Config.withDefault(defaultLimits.cpuSeconds))
  const display = yield* displaySize.pipe(Config.withDefault({ width: 1024, height: 768 }))
  return makeSettings({ root, limits: { memoryBytes, processes, cpuSeconds }, display })
})
