import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider"
import type { Tool } from "../tools/Tool.ts"
import { type CompiledTool, compileTool } from "../tools/toolDefinition.ts"
import type { ResolvedTool } from "./AgentRun.ts"
import { RunScope } from "./RunScope.ts"

/** One tool as the loop runs it: the contract, its merged context, its decoder, and the run's scope. */
export interface RunTool extends CompiledTool {
  readonly tool: Tool
  readonly context: Readonly<Record<string, unknown>>
  /** One for all the tools of the run: what they keep for the run alone closes with it. */
  readonly runScope: RunScope
}

export interface ToolSet {
  /** Function tools for the model call; `undefined` when there are none. */
  readonly definitions: Array<LanguageModelV4FunctionTool> | undefined
  readonly byName: ReadonlyMap<string, RunTool>
  /** To close when the run ends; `undefined` for a run without tools, which has nothing to close. */
  readonly runScope: RunScope | undefined
}

export const makeToolSet = (tools: ReadonlyArray<ResolvedTool>): ToolSet => {
  const byName = new Map<string, RunTool>()
  if (tools.length === 0) return { definitions: undefined, byName, runScope: undefined }
  const runScope = new RunScope()
  for (const { context, tool } of tools) byName.set(tool.name, { ...compileTool(tool), tool, context, runScope })
  return { definitions: Array.from(byName.values(), (entry) => entry.definition), byName, runScope }
}
