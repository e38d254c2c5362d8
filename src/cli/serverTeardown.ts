import { Cause, Exit, Runtime } from "effect"

/**
 * Exit codes for the processes that may serve: a server that SIGTERM or
 * SIGINT stopped, after draining, says so by setting `process.exitCode` (0:
 * a clean stop, docs/DESIGN.md §8); any other interrupted command still
 * exits 130, as `Runtime.defaultTeardown` has it.
 */
export const serverTeardown: Runtime.Teardown = (exit, onExit) => {
  if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) && process.exitCode !== undefined) {
    return onExit(Number(process.exitCode))
  }
  Runtime.defaultTeardown(exit, onExit)
}
