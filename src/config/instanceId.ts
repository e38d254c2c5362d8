import { Config, Schema } from "effect"
import { createHash } from "node:crypto"
import { hostname } from "node:os"
import { resolve } from "node:path"

/** Where sandboxes live unless `PARLEY_SANDBOX_DIR` says otherwise. */
export const defaultSandboxDir = "./data/sandboxes"

// Instance ids travel in error bodies and balancer configs: short, printable, no spaces.
const instancePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/**
 * The default instance id: the host name and a hash of the sandbox folder.
 * A sandbox lives in that folder, so whatever serves from it (a restarted
 * process, `--workers`, the CLI on the same host) is the same instance, and
 * nothing has to be written to find the id again (docs/DESIGN.md §8). A host
 * whose name changes on every start (a container) sets `PARLEY_INSTANCE_ID`.
 */
export const defaultInstanceId = (sandboxRoot: string): string => {
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 48) || "host"
  const folder = createHash("sha256").update(resolve(sandboxRoot)).digest("hex").slice(0, 8)
  return `${host}-${folder}`
}

/** `PARLEY_INSTANCE_ID`, when set. */
export const instanceIdSetting = Config.schema(
  Schema.String.check(
    Schema.isPattern(instancePattern, { message: "must be 1–64 letters, digits, '.', '_' or '-'" })
  ),
  "PARLEY_INSTANCE_ID"
)
