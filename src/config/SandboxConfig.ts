import { Config, Effect, Option, Schema } from "effect"

/**
 * What the environment sets of the embedded sandboxes; the sandbox settings
 * fill in the rest with their defaults (`sandbox/SandboxSettings.ts`).
 */
export interface SandboxConfig {
  /** `PARLEY_SANDBOX_DIR`: the folder holding one folder per sandbox. */
  readonly root?: string
  readonly limits: {
    /** `PARLEY_SANDBOX_MEMORY`: bytes per process and per jail's /tmp and /dev/shm, plain or with a unit (`1GiB`). */
    readonly memoryBytes?: number
    /** `PARLEY_SANDBOX_DISK`: size of each workspace's filesystem (`4GiB`; `0`: uncapped plain folders). */
    readonly diskBytes?: number
    /** `PARLEY_SANDBOX_CONCURRENCY`: commands of one sandbox running at once; the rest wait. */
    readonly commandsAtOnce?: number
    /** `PARLEY_SANDBOX_PROCESSES`: processes of one sandbox at once. */
    readonly processes?: number
    /** `PARLEY_SANDBOX_CPU_SECONDS`: CPU time per process. */
    readonly cpuSeconds?: number
  }
  /** `PARLEY_SANDBOX_DISPLAY`: the desktop's size, `1024x768`. */
  readonly display?: { readonly width: number; readonly height: number }
}

const positive = (name: string) => Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), name)

const bytes = (name: string) => positive(name).pipe(Config.orElse(() => Config.ByteSize(name).pipe(Config.map(Number))))

const bytesOrOff = (name: string) =>
  Config.schema(Schema.Literal("0"), name).pipe(Config.map(() => 0), Config.orElse(() => bytes(name)))

const displaySize = Config.schema(
  Schema.String.check(Schema.isPattern(/^\d{3,4}x\d{3,4}$/, { message: "must look like 1024x768" })),
  "PARLEY_SANDBOX_DISPLAY"
).pipe(Config.map((text) => {
  const [width, height] = text.split("x").map(Number)
  return { width: width ?? 0, height: height ?? 0 }
}))

// An unset variable leaves its key out, so the sandbox's default stands.
const whenSet = <K extends string, A>(key: K, value: Option.Option<A>): { readonly [P in K]?: A } =>
  Option.isSome(value) ? { [key]: value.value } as { readonly [P in K]: A } : {}

export const sandboxConfig = Effect.gen(function*() {
  const root = yield* Config.option(Config.String("PARLEY_SANDBOX_DIR"))
  const memoryBytes = yield* Config.option(bytes("PARLEY_SANDBOX_MEMORY"))
  const diskBytes = yield* Config.option(bytesOrOff("PARLEY_SANDBOX_DISK"))
  const commandsAtOnce = yield* Config.option(positive("PARLEY_SANDBOX_CONCURRENCY"))
  const processes = yield* Config.option(positive("PARLEY_SANDBOX_PROCESSES"))
  const cpuSeconds = yield* Config.option(positive("PARLEY_SANDBOX_CPU_SECONDS"))
  const display = yield* Config.option(displaySize)
  const config: SandboxConfig = {
    ...whenSet("root", root),
    limits: {
      ...whenSet("memoryBytes", memoryBytes),
      ...whenSet("diskBytes", diskBytes),
      ...whenSet("commandsAtOnce", commandsAtOnce),
      ...whenSet("processes", processes),
      ...whenSet("cpuSeconds", cpuSeconds)
    },
    ...whenSet("display", display)
  }
  return config
})
