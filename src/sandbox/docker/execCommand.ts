import type Dockerode from "dockerode"
import { Effect, Schema } from "effect"
import { randomBytes } from "node:crypto"
import type { Duplex } from "node:stream"
import { OutputCapture } from "../OutputCapture.ts"
import type { ProcessResult } from "../runProcess.ts"
import type { SandboxLimits } from "../SandboxSettings.ts"
import { engineMessage, engineStatus } from "./engine.ts"
import { frame, runScript, STOP_ALL_SIGNAL } from "./execScripts.ts"

/** The engine would not run the exec: 404 the container is gone, 409 it is not running; the message is the engine's. */
export class ExecRefused extends Schema.TaggedError<ExecRefused>()("ExecRefused", {
  status: Schema.NullOr(Schema.Number),
  message: Schema.String
}) {}

export interface ContainerCommand {
  /** A program and its arguments, or a bash script (of any length: it arrives on stdin). */
  readonly argv: ReadonlyArray<string> | { readonly bashScript: string }
  /** Programs it leaves running outlive it (a desktop's); otherwise they end with it. */
  readonly keepBackground: boolean
  readonly timeoutMs: number
  readonly stdin?: Uint8Array | undefined
  readonly keep: { readonly headBytes: number; readonly tailBytes: number }
  readonly stopAfterBytes: number
}

// A stopped command's processes end within milliseconds (`feed` in execScripts.ts); should they not, every command
// in the sandbox is stopped, and then its output is no longer waited for (a process that cleared its environment).
const STOP_ALL_AFTER_MS = 2_000
const ABANDON_AFTER_MS = 5_000
const HEADER = 8

/**
 * Runs one command in a running container as an exec, and collects its
 * output as a local jail's (`ProcessResult`). On timeout, on too much output
 * and on interruption (a cancelled request) the command is stopped by
 * closing the exec's stdin, on which the command's wrapper kills every
 * process of it (execScripts.ts); interruption completes once its output
 * has ended.
 */
export const runInContainer = (
  container: Dockerode.Container,
  limits: SandboxLimits,
  command: ContainerCommand
): Effect.Effect<ProcessResult, ExecRefused> =>
  Effect.callback<ProcessResult, ExecRefused>((resume) => {
    const stdout = new OutputCapture(command.keep.headBytes, command.keep.tailBytes)
    const stderr = new OutputCapture(command.keep.headBytes, command.keep.tailBytes)
    let stream: Duplex | undefined
    let ended = false
    let stopped = false
    let timedOut = false
    let outputLimited = false
    const endWaiters: Array<() => void> = []

    const closeInput = () => {
      stream!.end()
      setTimeout(() => {
        if (ended) return
        void container.kill({ signal: STOP_ALL_SIGNAL }).catch(() => undefined)
        setTimeout(() => stream!.destroy(), ABANDON_AFTER_MS).unref()
      }, STOP_ALL_AFTER_MS).unref()
    }
    const stop = () => {
      if (stopped) return
      stopped = true
      // Not started yet: stopped as soon as it is.
      if (stream !== undefined) closeInput()
    }
    const timer = setTimeout(() => {
      timedOut = true
      stop()
    }, command.timeoutMs)

    const captures = [undefined, stdout, stderr]
    let pending: Buffer = Buffer.alloc(0)
    const collect = (chunk: Buffer) => {
      // The engine multiplexes stdout and stderr: an 8-byte header (stream, 3 zeros, length) before each frame.
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      while (pending.length >= HEADER) {
        const length = pending.readUInt32BE(4)
        if (pending.length < HEADER + length) break
        captures[pending[0]!]?.push(pending.subarray(HEADER, HEADER + length))
        pending = pending.subarray(HEADER + length)
      }
      if (!outputLimited && stdout.total + stderr.total > command.stopAfterBytes) {
        outputLimited = true
        stop()
      }
    }

    const run = async () => {
      const bash = ["/bin/bash", "-c", runScript(limits, command.keepBackground), "/bin/bash"]
      const exec = await container.exec({
        Cmd: "bashScript" in command.argv ? bash : [...bash, ...command.argv],
        Env: [`PARLEY_RUN=${randomBytes(12).toString("hex")}`],
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true
      })
      const started = await exec.start({ hijack: true, stdin: true }) as Duplex
      stream = started
      await new Promise<void>((resolve, reject) => {
        started.on("data", collect)
        started.once("end", resolve)
        started.once("close", resolve)
        started.once("error", (error) => stopped ? resolve() : reject(error))
        started.write(frame("bashScript" in command.argv ? command.argv.bashScript : undefined, command.stdin))
        if (stopped) closeInput()
      })
      ended = true
      started.destroy()
      endWaiters.forEach((wake) => wake())
      return stopped ? null : (await exec.inspect()).ExitCode
    }

    run().then(
      (exitCode) => {
        clearTimeout(timer)
        resume(Effect.succeed({ stdout, stderr, exitCode, timedOut, outputLimited }))
      },
      (error) => {
        clearTimeout(timer)
        ended = true
        endWaiters.forEach((wake) => wake())
        resume(Effect.fail(new ExecRefused({ status: engineStatus(error) ?? null, message: engineMessage(error) })))
      }
    )

    return Effect.callback<void>((done) => {
      clearTimeout(timer)
      stop()
      if (ended) return done(Effect.void)
      endWaiters.push(() => done(Effect.void))
    })
  })

/** Runs a short program as an exec, its output discarded; its exit code. */
export const execToEnd = async (
  container: Dockerode.Container,
  cmd: ReadonlyArray<string>,
  env: ReadonlyArray<string> = []
): Promise<number | null> => {
  const exec = await container.exec({ Cmd: [...cmd], Env: [...env], AttachStdout: true, AttachStderr: true })
  const stream = await exec.start({ hijack: true, stdin: false }) as Duplex
  await new Promise<void>((resolve) => {
    stream.resume()
    stream.once("end", resolve)
    stream.once("close", resolve)
    stream.once("error", () => resolve())
  })
  return (await exec.inspect()).ExitCode
}
