import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider"
import type { Tool } from "../tools/Tool.ts"
import { type CompiledTool, compileTool } from "../tools/toolDefinition.ts"
import type { ClientTool, ResolvedTool } from "./AgentRun.ts"
import { RunScope } from "./RunScope.ts"

/** One tool as the loop runs it: the contract, its merged context, its decoder, and the run's scope. */
export interface RunTool extends CompiledTool {
  readonly tool: Tool
  readonly context: Readonly<Record<string, unknown>>
  /** One for all the tools of the run: what they keep for the run alone closes with it. */
  readonly runScope: RunScope
}

export interface ToolSet {
  /** Function tools for the model call, the client's after parley's; `undefined` when there are none. */
  readonly definitions: Array<LanguageModelV4FunctionTool> | undefined
  readonly byName: ReadonlyMap<string, RunTool>
  /** The tools the client runs itself, by name (docs/DESIGN.md §14). */
  readonly client: ReadonlyMap<string, LanguageModelV4FunctionTool>
  /** To close when the run ends; `undefined` for a run without tools, which has nothing to close. */
  readonly runScope: RunScope | undefined
}

const noClientTools: ReadonlyMap<string, LanguageModelV4FunctionTool> = new Map()

const clientDefinition = (tool: ClientTool): LanguageModelV4FunctionTool => ({
  type: "function",
  name: tool.name,
  ...(tool.description === undefined ? {} : { description: tool.description }),
  inputSchema: tool.inputSchema,
  ...(tool.strict === undefined ? {} : { strict: tool.strict })
})

export const makeToolSet = (tools: ReadonlyArray<ResolvedTool>, clientTools?: ReadonlyArray<ClientTool>): ToolSet => {
  const byName = new Map<string, RunTool>()
  const client = clientTools === undefined || clientTools.length === 0
    ? noClientTools
    : new Map(clientTools.map((tool) => [tool.name, clientDefinition(tool)]))
  const clientDefinitions = Array.from(client.values())
  if (tools.length === 0) {
    return {
      definitions: clientDefinitions.length === 0 ? undefined : clientDefinitions,
      byName,
      client,
      runScope: undefined
    }
  }
  const runScope = new RunScope()
  for (const { context, tool } of tools) byName.set(tool.name, { ...compileTool(tool), tool, context, runScope })
  const definitions = Array.from(byName.values(), (entry) => entry.definition)
  return { definitions: definitions.concat(clientDefinitions), byName, client, runScope }
}
