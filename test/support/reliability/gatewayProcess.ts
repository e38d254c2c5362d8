import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { startFlags } from "../../../scripts/build.ts"
import { UPSTREAM_API_KEY } from "../gateway.ts"

/**
 * The gateway as an operator runs it: `node src/main.ts` in a child process,
 * with the V8 heap flags of `npm start` (without them the young generation
 * grows to ~130 MiB under load and the soak's RSS figure measures that, not a
 * leak), configured only by environment and config file (a provider `test` with
 * models `m1` and `m2` at `upstreamUrl`), a fresh SQLite file, every built-in
 * tool. A key is made with the real CLI. The child's stdout and stderr are
 * kept for the secrets check; /proc gives its RSS and open files; the
 * test-only preload `probe.ts` its active handles and timers.
 */
export interface GatewayProcess {
  readonly url: string
  readonly pid: number
  /** The secret of a key allowed every model and tool. */
  readonly key: string
  readonly databaseFile: string
  readonly configFile: string
  /** Everything the process wrote to stdout and stderr so far. */
  readonly output: () => string
  readonly stats: () => Promise<ProcessStats>
  /** Runs the `parley` CLI against the same database and config. */
  readonly cli: (...args: Array<string>) => Promise<string>
  /** How the process ended, once it has. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
  readonly stop: () => Promise<void>
}

export interface ProcessStats {
  readonly rss: number
  readonly openFiles: number
  /** What each open file is (`readlink` of /proc/PID/fd/N, numbers of sockets and pipes dropped), sorted. */
  readonly fileKinds: ReadonlyArray<string>
  /** `process.getActiveResourcesInfo()` counted by kind (`Timeout`, `TCPSocketWrap` …). */
  readonly resources: Readonly<Record<string, number>>
  readonly heapUsed: number
  /** Memory outside the JS heap that V8 knows of (Buffers, ArrayBuffers), after the same collection. */
  readonly external: number
}

export interface GatewayProcessOptions {
  readonly upstreamUrl: string
  readonly env?: Record<string, string>
  /** The child's open-file soft limit (default: its hard limit). */
  readonly openFileLimit?: number
  /** Extra provider entries of the config file. */
  readonly providers?: ReadonlyArray<Record<string, unknown>>
}

const root = fileURLToPath(new URL("../../../", import.meta.url))
const probe = fileURLToPath(new URL("./probe.ts", import.meta.url))
const STARTUP_MS = 30_000

const fileKind = (pid: number, fd: string): string => {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`).replace(/:\[\d+\]$/, "")
  } catch {
    return "closed"
  }
}
import { freePort } from "../freePort.ts"

export { freePort }

const STOP_MS = 10_000

const waitForHealth = async (url: string, child: ChildProcess): Promise<void> => {
  const deadline = Date.now() + STARTUP_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode} before it was ready`)
    const ok = await fetch(`${url}/health`).then((response) => response.ok, () => false)
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the gateway did not answer /health within ${STARTUP_MS} ms`)
}

export const startGatewayProcess = async (options: GatewayProcessOptions): Promise<GatewayProcess> => {
  const dir = mkdtempSync(join(tmpdir(), "parley-rel-"))
  const configFile = join(dir, "parley.config.json")
  const databaseFile = join(dir, "parley.db")
  writeFileSync(
    configFile,
    JSON.stringify({
      providers: [{
        id: "test",
        type: "openai-compatible",
        baseURL: options.upstreamUrl,
        apiKey: UPSTREAM_API_KEY,
        models: [
          { id: "m1", name: "Model One", categories: ["chat"], contextWindow: 128_000 },
          { id: "m2", name: "Model Two", categories: ["chat", "tools"] }
        ]
      }, ...(options.providers ?? [])]
    })
  )
  const port = await freePort()
  const env: Record<string, string> = {
    ...process.env as Record<string, string>,
    HOST: "127.0.0.1",
    PORT: String(port),
    PARLEY_CONFIG: configFile,
    DATABASE_URL: `sqlite:${databaseFile}`,
    PARLEY_SANDBOX_DIR: join(dir, "sandboxes"),
    PARLEY_SHUTDOWN_GRACE: "1s",
    ...options.env
  }
  const cli = async (...args: Array<string>) => {
    try {
      return (await promisify(execFile)(process.execPath, [join(root, "src/cli/main.ts"), ...args], { env, cwd: root }))
        .stdout
    } catch (error) {
      throw new Error(`parley ${args.join(" ")} failed: ${(error as { stderr?: string }).stderr ?? String(error)}`, {
        cause: error
      })
    }
  }
  const { key } = JSON.parse(await cli("keys", "create", "--name", "rel", "--models", "*", "--tools", "*", "--json"))

  const limit = options.openFileLimit === undefined ? "\"$(ulimit -Hn)\"" : String(options.openFileLimit)
  const child = spawn(
    "sh",
    [
      "-c",
      `ulimit -n ${limit}; exec "$0" "$@"`,
      process.execPath,
      ...startFlags(),
      "--expose-gc",
      "--import",
      probe,
      join(root, "src/main.ts")
    ],
    { env, cwd: root, stdio: ["ignore", "pipe", "pipe", "ipc"] }
  )
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal }))
  )
  let output = ""
  child.stdout!.on("data", (data: Buffer) => (output += data.toString("utf8")))
  child.stderr!.on("data", (data: Buffer) => (output += data.toString("utf8")))
  const url = `http://127.0.0.1:${port}`
  try {
    await waitForHealth(url, child)
  } catch (error) {
    child.kill("SIGKILL")
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`${String(error)}\n${output}`, { cause: error })
  }

  let nextId = 0
  const stats = (): Promise<ProcessStats> =>
    new Promise((resolve, reject) => {
      const id = ++nextId
      const timer = setTimeout(() => reject(new Error("the gateway's probe did not answer within 10 s")), 10_000)
      const onMessage = (message: any) => {
        if (message?.type !== "stats" || message.id !== id) return
        clearTimeout(timer)
        child.off("message", onMessage)
        const status = readFileSync(`/proc/${child.pid}/status`, "utf8")
        const fds = readdirSync(`/proc/${child.pid}/fd`)
        resolve({
          rss: Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024,
          openFiles: fds.length,
          fileKinds: fds.map((fd) => fileKind(child.pid!, fd)).sort(),
          resources: message.resources,
          heapUsed: message.memory.heapUsed,
          external: message.memory.external
        })
      }
      child.on("message", onMessage)
      child.send({ type: "stats", id })
    })

  return {
    url,
    pid: child.pid!,
    key,
    databaseFile,
    configFile,
    output: () => output,
    stats,
    cli,
    exited,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true })
          resolve()
        }
        if (child.exitCode !== null || child.signalCode !== null) return done()
        const kill = setTimeout(() => child.kill("SIGKILL"), STOP_MS)
        child.once("exit", () => {
          clearTimeout(kill)
          done()
        })
        child.kill("SIGTERM")
      })
  }
}
