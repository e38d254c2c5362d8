import { Effect, Option } from "effect"
import { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import { makeBashTool } from "./bash/bashTool.ts"
import { makeComputerTool } from "./computer/computerTool.ts"
import type { Tool } from "./Tool.ts"

/**
 * `bash` and `computer` on the gateway's sandbox provider. The gateway
 * always has one (`makeGateway` provides it before the registry is built);
 * a registry built without one simply has no sandbox tools.
 */
export const sandboxTools: Effect.Effect<ReadonlyArray<Tool>> = Effect.map(
  Effect.serviceOption(SandboxProvider),
  Option.match({
    onNone: () => [],
    onSome: (sandboxes) => [makeBashTool(sandboxes), makeComputerTool(sandboxes)]
  })
)
