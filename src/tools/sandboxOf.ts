import { Effect } from "effect"
import type { SandboxInfo } from "../sandbox/Sandbox.ts"
import { usableSandbox } from "../sandbox/sandboxAccess.ts"
import type { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import { type ToolExecution, ToolFailure } from "./Tool.ts"

/** The sandbox of this call, when the calling key may use it; otherwise a failure the model reads. */
export const sandboxOf = (
  sandboxes: SandboxProvider["Service"],
  execution: Pick<ToolExecution<unknown>, "sandboxId" | "key">
): Effect.Effect<SandboxInfo, ToolFailure> =>
  execution.sandboxId === null || execution.sandboxId === ""
    ? Effect.fail(new ToolFailure("This request has no sandboxId: the client must name a sandbox"))
    : Effect.mapError(usableSandbox(sandboxes, execution.sandboxId, execution.key), (error) =>
      new ToolFailure(error.message))
