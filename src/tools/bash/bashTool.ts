import { Effect, Schema } from "effect"
import type { SandboxProvider } from "../../sandbox/SandboxProvider.ts"
import { defineTool } from "../defineTool.ts"
import { sandboxOf } from "../sandboxOf.ts"
import { ToolFailure } from "../Tool.ts"

const MAX_TIMEOUT_MS = 300_000

const BashInput = Schema.Struct({
  command: Schema.String.check(Schema.isNonEmpty()).annotate({ description: "The bash command (or script) to run." }),
  timeout_ms: Schema.optional(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_TIMEOUT_MS })).annotate({
      description: "Stop the command after this many milliseconds (default 60000, at most 300000)."
    })
  )
})

const description = [
  "Runs a bash command in the sandbox named by the request's sandboxId and returns",
  "{stdout, stderr, exit_code, truncated, timed_out}.",
  "The working directory /workspace keeps its files between calls; nothing else persists (each call is a new shell).",
  "The system folders are read-only; there is no network unless the sandbox was created with it.",
  "Long output keeps only its beginning and end (truncated: true). exit_code is null when the command was stopped.",
  "In a desktop sandbox, DISPLAY is set and programs started in the background (cmd &) keep running."
].join(" ")

/** The `bash` tool (docs/DESIGN.md §3.12) on a SandboxProvider. */
export const makeBashTool = (sandboxes: SandboxProvider["Service"]) =>
  defineTool({
    name: "bash",
    description,
    category: "sandbox",
    inputSchema: BashInput,
    requiresSandbox: true,
    promptTypes: ["bossJobsiteSystemPrompt", "generalComputerSystemPrompt"],
    execute: (input, execution) =>
      Effect.gen(function*() {
        const sandbox = yield* sandboxOf(sandboxes, execution)
        const result = yield* sandboxes.run(sandbox.id, { command: input.command, timeoutMs: input.timeout_ms }).pipe(
          Effect.mapError((error) => new ToolFailure(error.message))
        )
        return {
          stdout: result.stdout,
          stderr: result.stderr,
          exit_code: result.exitCode,
          truncated: result.truncated,
          timed_out: result.timedOut
        }
      }).pipe(Effect.withSpan("bash.execute"))
  })
