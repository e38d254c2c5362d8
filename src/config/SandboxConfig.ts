import { Config, Effect, Option, Schema } from "effect"
import { durationMs } from "./OperationsConfig.ts"

/**
 * Where the engine of the `docker` backend listens, read as the docker CLI
 * reads it: `DOCKER_HOST` (`unix:///var/run/docker.sock` when unset,
 * `tcp://HOST:2376`), and with `DOCKER_TLS_VERIFY=1` the client certificate
 * and CA in `DOCKER_CERT_PATH` (`ca.pem`, `cert.pem`, `key.pem`; default `~/.docker`).
 */
export interface EngineAddress {
  readonly host: string
  readonly tlsVerify: boolean
  readonly certPath?: string | undefined
}

/**
 * What the environment sets of the sandboxes; the sandbox settings fill in
 * the rest with their defaults (`sandbox/SandboxSettings.ts`).
 */
export interface SandboxConfig {
  /** `PARLEY_SANDBOX_BACKEND`: `local` (bubblewrap on this instance) or `docker` (a container on an engine). */
  readonly backend?: "local" | "docker"
  /** `PARLEY_SANDBOX_IMAGE`: the image `docker` sandboxes start from. */
  readonly image?: string
  /** `DOCKER_HOST`, `DOCKER_TLS_VERIFY`, `DOCKER_CERT_PATH`. */
  readonly engine?: EngineAddress
  /** `PARLEY_SANDBOX_IDLE`: a sandbox no request used this long is reclaimed (0: never). */
  readonly idleMs?: number
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
    /** `PARLEY_SANDBOX_CPUS`: CPUs of one `docker` sandbox, all its processes together (a decimal, `1.5`). */
    readonly cpus?: number
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

const cpus = Config.schema(
  Schema.NumberFromString.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1024)),
  "PARLEY_SANDBOX_CPUS"
)

/** Where the docker CLI would go; none when none of its variables is set (the settings' default then). */
export const engineAddress = Effect.gen(function*() {
  const host = yield* Config.option(Config.NonEmptyString("DOCKER_HOST"))
  const tls = yield* Config.option(Config.String("DOCKER_TLS_VERIFY"))
  const certPath = yield* Config.option(Config.NonEmptyString("DOCKER_CERT_PATH"))
  if (Option.isNone(host) && Option.isNone(tls) && Option.isNone(certPath)) return Option.none<EngineAddress>()
  return Option.some<EngineAddress>({
    host: Option.getOrElse(host, () => "unix:///var/run/docker.sock"),
    // As the docker CLI: any non-empty value turns verification on.
    tlsVerify: Option.isSome(tls) && tls.value !== "",
    ...whenSet("certPath", certPath)
  })
})

export const sandboxConfig = Effect.gen(function*() {
  const backend = yield* Config.option(Config.Literals(["local", "docker"], "PARLEY_SANDBOX_BACKEND"))
  const image = yield* Config.option(Config.NonEmptyString("PARLEY_SANDBOX_IMAGE"))
  const engine = yield* engineAddress
  const idleMs = yield* Config.option(durationMs("PARLEY_SANDBOX_IDLE"))
  const root = yield* Config.option(Config.String("PARLEY_SANDBOX_DIR"))
  const memoryBytes = yield* Config.option(bytes("PARLEY_SANDBOX_MEMORY"))
  const diskBytes = yield* Config.option(bytesOrOff("PARLEY_SANDBOX_DISK"))
  const commandsAtOnce = yield* Config.option(positive("PARLEY_SANDBOX_CONCURRENCY"))
  const processes = yield* Config.option(positive("PARLEY_SANDBOX_PROCESSES"))
  const cpuSeconds = yield* Config.option(positive("PARLEY_SANDBOX_CPU_SECONDS"))
  const cpuCount = yield* Config.option(cpus)
  const display = yield* Config.option(displaySize)
  const config: SandboxConfig = {
    ...whenSet("backend", backend),
    ...whenSet("image", image),
    ...whenSet("engine", engine),
    ...whenSet("idleMs", idleMs),
    ...whenSet("root", root),
    limits: {
      ...whenSet("memoryBytes", memoryBytes),
      ...whenSet("diskBytes", diskBytes),
      ...whenSet("commandsAtOnce", commandsAtOnce),
      ...whenSet("processes", processes),
      ...whenSet("cpuSeconds", cpuSeconds),
      ...whenSet("cpus", cpuCount)
    },
    ...whenSet("display", display)
  }
  return config
})
