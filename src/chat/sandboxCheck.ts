import { Effect, Option } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { SandboxElsewhere } from "../sandbox/Sandbox.ts"
import { type SandboxForbidden, usableSandbox } from "../sandbox/sandboxAccess.ts"
import type { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import type { Tool } from "../tools/Tool.ts"
import { UnknownSandbox } from "./planErrors.ts"

/**
 * Before a run: when a selected tool needs a sandbox and the request names
 * one, the key must be allowed to use it, and it must live on this instance
 * (a balancer routes by sandbox on the 409 it gets otherwise). A gateway without a sandbox
 * provider has no sandbox tools to protect.
 */
export const checkSandboxAccess = (
  sandboxes: Option.Option<SandboxProvider["Service"]>,
  tools: ReadonlyArray<Tool>,
  sandboxId: string | null | undefined,
  key: ApiKey
): Effect.Effect<void, UnknownSandbox | SandboxForbidden | SandboxElsewhere> => {
  if (Option.isNone(sandboxes) || sandboxId === undefined || sandboxId === null || sandboxId === "") return Effect.void
  if (!tools.some((tool) => tool.requiresSandbox)) return Effect.void
  return usableSandbox(sandboxes.value, sandboxId, key).pipe(
    Effect.catchTag("SandboxNotFound", () => Effect.fail(new UnknownSandbox({ sandboxId }))),
    Effect.asVoid
  )
}
