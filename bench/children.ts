import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * The bench's child processes: the upstream and the gateway each run in their
 * own Node process (the one running this file), so CPU, RSS and event-loop lag
 * are the gateway's alone. Each is started through `sh` to raise its open-file
 * limit to the hard limit first: the open-streams run needs two sockets a stream.
 */
export interface Child {
  readonly pid: number
  readonly ready: Record<string, unknown>
  /** Sends `message` and resolves with the child's reply of the same type. */
  readonly ask: <A>(message: { readonly type: string }) => Promise<A>
  readonly stop: () => Promise<void>
}

const STARTUP_MS = 30_000
const STOP_MS = 10_000

export const startChild = (entry: string, env: Record<string, string>, nodeArgs: ReadonlyArray<string> = []): Promise<Child> =>
  new Promise((resolve, reject) => {
    const file = fileURLToPath(new URL(entry, import.meta.url))
    const child: ChildProcess = spawn(
      "sh",
      ["-c", 'ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"', process.execPath, ...nodeArgs, file],
      { env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit", "ipc"] }
    )
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${entry} did not start within ${STARTUP_MS} ms`))
    }, STARTUP_MS)
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
