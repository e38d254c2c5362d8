import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { parentOf } from "../sandbox/support.ts"

export const cli = resolve(import.meta.dirname, "../../src/cli/main.ts")

export interface Served {
  readonly primary: ChildProcess
  readonly output: () => string
  readonly exited: Promise<number | null>
}

/** The environment of `parley serve` in `folder`: its own SQLite file and sandbox folder there, no config file. */
export const serveEnv = (folder: string, port: number, env: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  HOST: "127.0.0.1",
  PORT: String(port),
  DATABASE_URL: `sqlite:${join(folder, "parley.db")}`,
  PARLEY_SANDBOX_DIR: join(folder, "sandboxes"),
  ...env
})

/** `parley serve` with `args`, on `port`, in a fresh folder under `base` (or in `folder`); the cwd has no config file. */
export const serve = (
  base: string,
  port: number,
  args: ReadonlyArray<string>,
  options: { readonly folder?: string; readonly env?: Record<string, string> } = {}
): Served => {
  const folder = options.folder ?? mkdtempSync(join(base, "run-"))
  const primary = spawn(process.execPath, [cli, "serve", ...args], {
    cwd: folder,
    env: serveEnv(folder, port, options.env),
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  primary.stdout?.on("data", (chunk) => (output += chunk))
  primary.stderr?.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((done) => primary.once("exit", (code) => done(code)))
  return { primary, output: () => output, exited }
}

/** Waits for `check` while the primary runs; says what it printed when it stops or the time is up. */
export const until = async (served: Served, check: () => boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline || served.primary.exitCode !== null) {
      throw new Error(`no ${what} (exit code ${served.primary.exitCode}): ${served.output()}`)
    }
    await new Promise((done) => setTimeout(done, 50))
  }
}

/** Until `count` workers have said they listen. */
export const listeningWorkers = (served: Served, count: number, timeoutMs = 60_000) =>
  until(
    served,
    () => served.output().split("Listening on").length - 1 >= count,
    timeoutMs,
    `${count} workers listening`
  )

export { freePort } from "../support/freePort.ts"

export const childrenOf = (pid: number): Array<number> =>
  readdirSync("/proc").filter((name) => /^\d+$/.test(name) && parentOf(Number(name)) === pid).map(Number)
