import { Effect } from "effect"
import { type ChildProcess, spawn, type StdioOptions } from "node:child_process"
import { OutputCapture } from "./OutputCapture.ts"
import { SandboxUnavailable } from "./Sandbox.ts"

export interface ProcessSpec {
  readonly file: string
  readonly args: ReadonlyArray<string>
  /** Host user and group to run as (the gateway must be root); undefined: the gateway's own. */
  readonly identity?: { readonly uid: number; readonly gid: number } | undefined
  readonly stdin?: Uint8Array | undefined
  /** Extra descriptors handed to the child as fd 3, 4, … */
  readonly fds?: ReadonlyArray<number> | undefined
  /**
   * Written to a pipe handed to the child as the descriptor after `fds`
   * (`scriptFd`): a command too long for an argument (128 KiB, E2BIG) still
   * fits, and stdin stays the command's own.
   */
  readonly script?: Uint8Array | undefined
  /**
   * `count` more pipes, handed to the child as the descriptors after the
   * script's (`extraFd`), which `onSpawn` talks over once the child runs
   * (runJailed's join gate, joinGate.ts).
   */
  readonly extraPipes?: { readonly count: number; readonly onSpawn: (child: ChildProcess) => void } | undefined
  readonly timeoutMs: number
  readonly keep: { readonly headBytes: number; readonly tailBytes: number }
  /** The process group is stopped once stdout and stderr together exceed this. */
  readonly stopAfterBytes: number
}

export interface ProcessResult {
  readonly stdout: OutputCapture
  readonly stderr: OutputCapture
  /** null when parley killed it. */
  readonly exitCode: number | null
  readonly timedOut: boolean
  readonly outputLimited: boolean
}

/** The kept stdout as bytes, and stderr as text without its surrounding blanks. */
export const bytesOf = (result: ProcessResult) => ({
  stdout: result.stdout.bytes(),
  stderr: result.stderr.text().trim()
})

// A program the command left running in the background may hold the output
// pipes open; its output after the command ended is not the command's.
const CLOSE_GRACE_MS = 150

/** The descriptor a ProcessSpec's `script` arrives on. */
export const scriptFd = (fds: ReadonlyArray<number>): number => 3 + fds.length

/** The descriptor of a ProcessSpec's first extra pipe: after `fds` and the script's pipe, if any. */
export const extraFd = (fds: ReadonlyArray<number>, script: Uint8Array | undefined): number =>
  scriptFd(fds) + (script === undefined ? 0 : 1)

const killGroup = (pid: number | undefined) => {
  if (pid === undefined) return
  try {
    process.kill(-pid, "SIGKILL")
  } catch {
    // already gone
  }
}

/**
 * Runs a program in its own process group and collects its output. On
 * timeout, on too much output and on interruption (a cancelled request) the
 * whole group is killed with SIGKILL; interruption completes only once the
 * group leader is gone.
 */
export const runProcess = (spec: ProcessSpec): Effect.Effect<ProcessResult, SandboxUnavailable> =>
  Effect.callback<ProcessResult, SandboxUnavailable>((resume) => {
    const stdio: StdioOptions = [
      spec.stdin === undefined ? "ignore" : "pipe",
      "pipe",
      "pipe",
      ...(spec.fds ?? []),
      ...(spec.script === undefined ? [] : ["pipe" as const]),
      ...Array.from({ length: spec.extraPipes?.count ?? 0 }, () => "pipe" as const)
    ]
    let child: ReturnType<typeof spawn>
    try {
      child = spawn(spec.file, spec.args, {
        stdio,
        detached: true,
        cwd: "/",
        env: {},
        ...(spec.identity === undefined ? {} : { uid: spec.identity.uid, gid: spec.identity.gid })
      })
    } catch (error) {
      // spawn throws (rather than emitting "error") for some failures, E2BIG among them.
      const reason = error instanceof Error ? error.message : String(error)
      return resume(Effect.fail(new SandboxUnavailable({ message: `Could not start ${spec.file}: ${reason}` })))
    }
    const stdout = new OutputCapture(spec.keep.headBytes, spec.keep.tailBytes)
    const stderr = new OutputCapture(spec.keep.headBytes, spec.keep.tailBytes)
    let exited = false
    let killed = false
    let timedOut = false
    let outputLimited = false
    const exitWaiters: Array<() => void> = []

    const kill = () => {
      killed = true
      killGroup(child.pid)
    }
    const timer = setTimeout(() => {
      timedOut = true
      kill()
    }, spec.timeoutMs)
    const collect = (capture: OutputCapture) => (chunk: Buffer) => {
      capture.push(chunk)
      if (!outputLimited && stdout.total + stderr.total > spec.stopAfterBytes) {
        outputLimited = true
        kill()
      }
    }
    child.stdout?.on("data", collect(stdout))
    child.stderr?.on("data", collect(stderr))
    const feed = (stream: unknown, bytes: Uint8Array | undefined) => {
      if (bytes === undefined || stream === null || typeof stream !== "object" || !("end" in stream)) return
      const writable = stream as NodeJS.WritableStream
      writable.on("error", () => {}) // the program may exit without reading it all
      writable.end(bytes)
    }
    feed(child.stdin, spec.stdin)
    feed(child.stdio[scriptFd(spec.fds ?? [])], spec.script)
    spec.extraPipes?.onSpawn(child)

    child.once("error", (error) => {
      clearTimeout(timer)
      exited = true
      exitWaiters.forEach((wake) => wake())
      resume(Effect.fail(new SandboxUnavailable({ message: `Could not start ${spec.file}: ${error.message}` })))
    })
    child.once("exit", (code) => {
      exited = true
      clearTimeout(timer)
      exitWaiters.forEach((wake) => wake())
      let finished = false
      const finish = () => {
        if (finished) return
        finished = true
        child.stdout?.destroy()
        child.stderr?.destroy()
        resume(Effect.succeed({ stdout, stderr, exitCode: killed ? null : code, timedOut, outputLimited }))
      }
      if (child.stdout?.closed !== false && child.stderr?.closed !== false) return finish()
      // The grace is counted from the exit, but what the command wrote before it exited may still be unread:
      // the exit can be reaped in the poll that read only part of it, and a loop kept busy for longer than the
      // grace (other screenshots' PNGs, a loaded machine) runs this timer before the next poll reads the rest.
      // setImmediate runs after that poll, so it is read first.
      const grace = setTimeout(() => setImmediate(finish), CLOSE_GRACE_MS)
      child.once("close", () => {
        clearTimeout(grace)
        finish()
      })
    })

    return Effect.callback<void>((done) => {
      clearTimeout(timer)
      kill()
      if (exited) return done(Effect.void)
      exitWaiters.push(() => done(Effect.void))
    })
  })
