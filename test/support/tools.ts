import { Effect, Schema } from "effect"
import type { Tool } from "../../src/tools/Tool.ts"

/** A tool for tests: echoes its input and the context it was given. */
export const makeTestTool = (overrides: Partial<Tool> & { readonly name: string }): Tool => ({
  description: `Test tool ${overrides.name}`,
  category: "test",
  inputSchema: Schema.Struct({ text: Schema.String }),
  requiredContext: [],
  requiresSandbox: false,
  promptTypes: [],
  execute: (input: { text: string }, execution) =>
    Effect.succeed({ echoed: input.text, contextKeys: Object.keys(execution.context).sort() }),
  ...overrides
})
