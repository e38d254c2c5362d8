import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { build, bundledFile, entryPoints, root, startFlags } from "../scripts/build.ts"

/**
 * The bench's child processes: the upstream and the gateway each run in their
 * own Node process (the one running this file), so CPU, RSS and event-loop lag
 * are the gateway's alone. Each is started through `sh` to raise its open-file
 * limit to the hard limit first: the open-streams run needs two sockets a stream.
 * An entry the production build bundles (the gateway) runs as `npm start`
 * runs the service: from a fresh bundle, with the start script's Node flags.
 */
export interface Child {
  readonly pid: number
  readonly ready: Record<string, unknown>
  /** Sends `message` and resolves with the child's reply of the same type. */
  readonly ask: <A>(message: { readonly type: string; readonly [field: string]: unknown }) => Promise<A>
  readonly stop: () => Promise<void>
}

const STARTUP_MS = 30_000
const STOP_MS = 10_000

interface Program {
  readonly file: string
  readonly nodeArgs: ReadonlyArray<string>
  readonly remove: () => void
}

// Each bundled child gets its own build, inside the project (the bundle loads its externals from node_modules),
// so that benches running side by side, or a rebuild by `npm start`, never change the files a gateway runs from.
// `fromSources` runs even a bundled entry from its TypeScript: profiles then name packages and files.
const program = async (entry: string, fromSources: boolean): Promise<Program> => {
  const source = fileURLToPath(new URL(entry, import.meta.url))
  const bundled = entryPoints.find((point) => point === relative(root, source))
  if (bundled === undefined || fromSources) return { file: source, nodeArgs: [], remove: () => {} }
  const cache = join(root, "node_modules", ".cache")
  mkdirSync(cache, { recursive: true })
  const outdir = mkdtempSync(join(cache, "parley-bench-"))
  await build(outdir)
  return {
    file: bundledFile(outdir, bundled),
    nodeArgs: startFlags(),
    remove: () => rmSync(outdir, { recursive: true, force: true })
  }
}

/** `wrapper` runs Node under another program (`valgrind …`), which may take minutes to start it. */
export const startChild = async (
  entry: string,
  env: Record<string, string>,
  nodeArgs: ReadonlyArray<string> = [],
  fromSources = false,
  wrapper: ReadonlyArray<string> = []
): Promise<Child> => {
  const { file, nodeArgs: startArgs, remove } = await program(entry, fromSources)
  return spawnChild(entry, file, env, [...startArgs, ...nodeArgs], wrapper).then(
    (child) => ({ ...child, stop: () => child.stop().finally(remove) }),
    (error: unknown) => {
      remove()
      throw error
    }
  )
}

export const spawnChild = (
  entry: string,
  file: string,
  env: Record<string, string>,
  nodeArgs: ReadonlyArray<string>,
  wrapper: ReadonlyArray<string>
): Promise<Child> =>
  new Promise((resolve, reject) => {
    const command = [...wrapper, process.execPath, ...nodeArgs, file]
    const child: ChildProcess = spawn(
      "sh",
      ["-c", "ulimit -n \"$(ulimit -Hn)\"; exec \"$0\" \"$@\"", ...command],
      { env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit", "ipc"] }
    )
    const startupMs = wrapper.length === 0 ? STARTUP_MS : 20 * STARTUP_MS
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${entry} did not start within ${startupMs} ms`))
    }, startupMs)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`${entry} exited with ${code} before it was ready`))
    })
    let nextId = 0
    const waiting = new Map<number, (value: any) => void>()
    child.on("message", (message: any) => {
      if (message?.type === "ready") {
        clearTimeout(timer)
        child.removeAllListeners("exit")
        resolve({
          pid: child.pid!,
          ready: message,
          ask: (request) =>
            new Promise((answer) => {
              const id = ++nextId
              waiting.set(id, answer)
              child.send({ ...request, id })
            }),
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done()
              const kill = setTimeout(() => child.kill("SIGKILL"), STOP_MS)
              child.once("exit", () => {
                clearTimeout(kill)
                done()
              })
              child.send({ type: "exit" })
            })
        })
        return
      }
      const answer = waiting.get(message?.id)
      if (answer !== undefined) {
        waiting.delete(message.id)
        answer(message)
      }
    })
  })

/** Resident set size now and its peak (VmHWM) over the process's life, in bytes, from /proc. */
export const memoryOf = (pid: number): { readonly rss: number; readonly peak: number } => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024
  return { rss: kb("VmRSS"), peak: kb("VmHWM") }
}

/** Open-file hard limit of this machine (children raise their soft limit to it). */
export const openFileLimit = (): number => {
  const limits = readFileSync("/proc/self/limits", "utf8")
  const hard = /^Max open files\s+\d+\s+(\d+|unlimited)/m.exec(limits)?.[1]
  return hard === undefined || hard === "unlimited" ? Number.MAX_SAFE_INTEGER : Number(hard)
}
