import type { ProcessResult } from "./runProcess.ts"
import { SandboxUnavailable } from "./Sandbox.ts"
import type { SandboxLimits } from "./SandboxSettings.ts"

/**
 * bubblewrap or prlimit failing before the command ran: no output, their
 * own name opening stderr. The usual cause is the sandbox's process limit
 * (the kernel then refuses a new namespace or process), which its
 * programs left running in the background can fill; that is said plainly.
 */
export const jailFailure = (result: ProcessResult, limits: SandboxLimits): SandboxUnavailable | undefined => {
  if (result.exitCode === 0 || result.exitCode === null || result.stdout.total > 0) return undefined
  const reason = result.stderr.text().trim().split("\n")[0] ?? ""
  if (!/^(bwrap|prlimit): /.test(reason)) return undefined
  const crowded = /namespace|Resource temporarily unavailable|fork/i.test(reason)
  return new SandboxUnavailable({
    message: crowded
      ? `The command could not start: the sandbox is at its limit of ${limits.processes} processes (${reason}). ` +
        "Let its running commands finish or stop programs it left running in the background, then retry."
      : `The command could not start in the sandbox (${reason})`
  })
}
