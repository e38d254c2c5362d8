import { assert, describe, it } from "@effect/vitest"
import { commandResult } from "../../src/sandbox/commandResult.ts"
import { OutputCapture } from "../../src/sandbox/OutputCapture.ts"
import type { ProcessResult } from "../../src/sandbox/runProcess.ts"

const captured = (text: string, headBytes = 1024) => {
  const capture = new OutputCapture(headBytes, 0)
  if (text !== "") capture.push(Buffer.from(text))
  return capture
}

const processResult = (fields: Partial<ProcessResult>): ProcessResult => ({
  stdout: captured(""),
  stderr: captured(""),
  exitCode: 0,
  timedOut: false,
  outputLimited: false,
  ...fields
})

describe("commandResult", () => {
  it("passes a command's output and exit code through as they were", () => {
    const result = commandResult(
      processResult({ stdout: captured("out\n"), stderr: captured("warning\n"), exitCode: 2 }),
      1000,
      64
    )
    assert.deepStrictEqual(result, {
      stdout: "out\n",
      stderr: "warning\n",
      exitCode: 2,
      truncated: false,
      timedOut: false
    })
  })

  it("ends stderr with why parley stopped the command, on lines of their own", () => {
    const result = commandResult(
      processResult({ stderr: captured("partial\n"), exitCode: null, timedOut: true, outputLimited: true }),
      500,
      64
    )
    assert.strictEqual(
      result.stderr,
      "partial\n[parley: stopped after the 500 ms timeout]\n[parley: stopped after 64 bytes of output]"
    )
    assert.deepStrictEqual([result.exitCode, result.truncated, result.timedOut], [null, true, true])
  })

  it("a note alone when stderr was empty, and truncated when a stream lost bytes", () => {
    const result = commandResult(processResult({ stdout: captured("0123456789", 4), timedOut: true }), 500, 64)
    assert.strictEqual(result.stderr, "[parley: stopped after the 500 ms timeout]")
    assert.isTrue(result.truncated)
  })
})
