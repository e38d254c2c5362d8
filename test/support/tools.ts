import { Effect, Schema } from "effect"
import type { Tool, ToolExecution, ToolFailure } from "../../src/tools/Tool.ts"

const Echo = Schema.Struct({ text: Schema.String })

/**
 * A tool for tests: echoes its input and the keys of the context it was given.
 * Built as the erased `Tool` directly, so a test sees the merged context as
 * the loop passes it and can declare presence-only requirements.
 */
export const makeTestTool = <Input extends Schema.Codec<unknown, unknown> = typeof Echo>(
  overrides: Partial<Omit<Tool, "inputSchema" | "execute">> & {
    readonly name: string
    readonly inputSchema?: Input
    readonly execute?: (input: Input["Type"], execution: ToolExecution) => Effect.Effect<unknown, ToolFailure>
  }
): Tool => {
  const { execute, ...rest } = overrides
  return {
    description: `Test tool ${overrides.name}`,
    category: "test",
    inputSchema: Echo,
    requiredContext: [],
    requiresSandbox: false,
    promptTypes: [],
    ...rest,
    execute: (execute ??
      ((input: { text: string }, execution: ToolExecution) =>
        Effect.succeed({ echoed: input.text, contextKeys: Object.keys(execution.context).sort() }))) as Tool[
        "execute"
      ]
  }
}
