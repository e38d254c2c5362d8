import { Effect } from "effect"
import { type DesktopAction, parseCursor } from "./desktopActions.ts"
import { bytesOf, type ProcessResult } from "./runProcess.ts"
import { InvalidDesktopAction, SandboxUnavailable } from "./Sandbox.ts"
import { decodeXwd, encodePng } from "./screenshot.ts"

/** What a desktop action's program (xwd or xdotool) printed, as the action's result. */
export const desktopResult = Effect.fnUntraced(function*(action: DesktopAction, result: ProcessResult) {
  const { stderr, stdout } = bytesOf(result)
  if (result.exitCode !== 0) {
    return yield* new InvalidDesktopAction({
      message: `${action.action} failed: ${stderr || `exit code ${result.exitCode}`}`
    })
  }
  if (action.action === "screenshot") {
    return yield* Effect.try({
      try: () => ({ screenshot: new Uint8Array(encodePng(decodeXwd(stdout))) }),
      catch: (error) => new SandboxUnavailable({ message: `Could not read the screen: ${String(error)}` })
    })
  }
  if (action.action === "cursor_position") {
    const cursor = parseCursor(stdout.toString("utf8"))
    if (cursor === undefined) {
      return yield* new SandboxUnavailable({ message: "xdotool did not report the pointer" })
    }
    return { cursor }
  }
  return {}
})
