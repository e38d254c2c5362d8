import type { ProcessResult } from "./runProcess.ts"
import type { CommandResult } from "./Sandbox.ts"

/**
 * A command's answer from its jail's result; when parley stopped the
 * command, a note at the end of stderr says why.
 */
export const commandResult = (result: ProcessResult, timeoutMs: number, outputStopBytes: number): CommandResult => {
  const notes = [
    ...(result.timedOut ? [`[parley: stopped after the ${timeoutMs} ms timeout]`] : []),
    ...(result.outputLimited ? [`[parley: stopped after ${outputStopBytes} bytes of output]`] : [])
  ]
  const stderr = result.stderr.text()
  return {
    stdout: result.stdout.text(),
    stderr: notes.length === 0
      ? stderr
      : [stderr.replace(/\n$/, ""), ...notes].filter((line) => line !== "").join("\n"),
    exitCode: result.exitCode,
    truncated: result.stdout.truncated || result.stderr.truncated || result.outputLimited,
    timedOut: result.timedOut
  }
}
