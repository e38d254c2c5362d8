import { spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface ClientRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs a client to its end with only the environment given (plus PATH and a
 * shell), so the developer's own keys and settings never reach it. A client
 * that outlives `timeoutMs` is killed, and its output so far is in the error.
 */
export const runClient = (
  bin: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: Record<string, string>; readonly timeoutMs?: number }
): Promise<ClientRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SHELL: "/bin/bash", LANG: "C.UTF-8", ...options.env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timeoutMs = options.timeoutMs ?? 60_000
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${bin} ran longer than ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, timeoutMs)
    child.once("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

/** A fresh directory, and a function that removes it. */
export const tempDir = async (prefix: string) => {
  const path = await mkdtemp(join(tmpdir(), `parley-${prefix}-`))
  return { path, remove: () => rm(path, { recursive: true, force: true }) }
}
