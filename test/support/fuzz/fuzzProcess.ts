import { type ChildProcess, fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { startFlags } from "../../../scripts/build.ts"

const main = fileURLToPath(new URL("./fuzzGatewayMain.ts", import.meta.url))
const STARTUP_MS = 30_000

/** The fuzz gateway in a child process (`fuzzGatewayMain.ts`), with the V8 heap flags of `npm start`. */
export interface FuzzProcess {
  readonly url: string
  readonly secret: string
  /** How the process ended, once it did (a crash: a code or a signal). */
  readonly exit: () => { readonly code: number | null; readonly signal: NodeJS.Signals | null } | undefined
  /** What it wrote to stdout and stderr (its warnings and errors). */
  readonly output: () => string
  readonly stop: () => Promise<void>
}

export const startFuzzProcess = async (): Promise<FuzzProcess> => {
  const child: ChildProcess = fork(main, [], { execArgv: [...startFlags()], stdio: ["ignore", "pipe", "pipe", "ipc"] })
  let output = ""
  child.stdout!.on("data", (data: Buffer) => (output += data.toString("utf8")))
  child.stderr!.on("data", (data: Buffer) => (output += data.toString("utf8")))
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = { code, signal }
      resolve()
    })
  )
  const ready = await Promise.race([
    new Promise<{ url: string; secret: string }>((resolve) => child.once("message", resolve as never)),
    exited.then(() => Promise.reject(new Error(`the fuzz gateway exited before it listened: ${output}`))),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`the fuzz gateway did not listen within ${STARTUP_MS} ms`)), STARTUP_MS).unref()
    )
  ])
  return {
    ...ready,
    exit: () => exit,
    output: () => output,
    stop: async () => {
      if (exit !== undefined) return
      child.disconnect()
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(killer)
    }
  }
}
