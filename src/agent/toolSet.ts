import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider"
import type { Tool } from "../tools/Tool.ts"
import { type CompiledTool, compileTool } from "../tools/toolDefinition.ts"
import type { ResolvedTool } from "./AgentRun.ts"

/** One tool as the loop runs it: the contract, its merged context, its decoder. */
export interface RunTool extends CompiledTool {
  readonly tool: Tool
  readonly context: Readonly<Record<string, unknown>>
}

export interface ToolSet {
  /** Function tools for the model call; `undefined` when there are none. */
  readonly definitions: Array<LanguageModelV4FunctionTool> | undefined
  readonly byName: ReadonlyMap<string, RunTool>
}

export const makeToolSet = (tools: ReadonlyArray<ResolvedTool>): ToolSet => {
  const byName = new Map<string, RunTool>()
  for (const { context, tool } of tools) byName.set(tool.name, { ...compileTool(tool), tool, context })
  return {
    definitions: byName.size === 0 ? undefined : Array.from(byName.values(), (entry) => entry.definition),
    byName
  }
}
