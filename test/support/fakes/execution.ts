import { Cause, Effect, Exit, Result } from "effect"
import type { Tool, ToolExecution } from "../../../src/tools/Tool.ts"
import { makeKey } from "../keys.ts"

/** A ToolExecution as the Agent builds one, for running a tool directly against a fake API. */
export const fakeExecution = (
  context: Record<string, unknown>,
  overrides: Partial<ToolExecution> = {}
): ToolExecution => ({
  toolCallId: "call_1",
  context,
  sandboxId: null,
  key: makeKey(),
  signal: new AbortController().signal,
  reportUsage: () => undefined,
  ...overrides
})

export type ToolRun = { readonly ok: true; readonly output: any } | { readonly ok: false; readonly error: string }

/** Runs a tool once; a ToolFailure becomes `{ok: false, error}` (a defect still throws). */
export const runTool = async (
  tool: Tool,
  input: unknown,
  context: Record<string, unknown>,
  overrides: Partial<ToolExecution> = {}
): Promise<ToolRun> => {
  const exit = await Effect.runPromiseExit(tool.execute(input, fakeExecution(context, overrides)))
  if (Exit.isSuccess(exit)) return { ok: true, output: exit.value }
  const failure = Cause.findError(exit.cause)
  if (Result.isFailure(failure)) throw new Error("the tool died instead of failing")
  return { ok: false, error: failure.success.message }
}
