import { Effect } from "effect"
import { closedFolderOnTheWay } from "./folders.ts"
import { gatewayIsRoot } from "./jail.ts"
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

/** Why the trivial command that proves a new sandbox's jail failed, and what to do about it. */
export const probeFailure = Effect.fnUntraced(function*(root: string, result: ProcessResult) {
  const reason = result.stderr.text().trim() || `exit code ${result.exitCode}`
  // Jails run as the sandbox's own user, who must be able to pass every folder on the way.
  const closed = gatewayIsRoot() ? yield* Effect.promise(() => closedFolderOnTheWay(root)) : undefined
  if (closed !== undefined) {
    return `bubblewrap cannot reach the sandbox folder ${root} (PARLEY_SANDBOX_DIR) as the sandbox's ` +
      `user: ${closed} is closed to other users. Run \`chmod o+x ${closed}\`, or set PARLEY_SANDBOX_DIR to a ` +
      `folder every user can pass (${reason})`
  }
  return `bubblewrap cannot create a jail on this host (${reason}); ` +
    "it needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)"
})
