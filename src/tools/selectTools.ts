import { allowsTool, type ApiKey } from "../domain/ApiKey.ts"
import type { PromptType } from "../domain/PromptType.ts"
import type { Tool } from "./Tool.ts"
import { ToolNotAllowed, UnknownTool } from "./toolErrors.ts"
import type { ToolRegistry } from "./ToolRegistry.ts"

export interface ToolSelection {
  readonly tools: ReadonlyArray<Tool>
  /** Tools that could not be selected, with why; filled only when `collect` is set (reports). */
  readonly rejected: ReadonlyArray<{ readonly name: string; readonly error: string }>
}

/**
 * docs/spec.md, POST /chat rule 4: a valid promptType's tool set united with `allowedTools`;
 * neither means no tools. A promptType's set is the registered tools that
 * declare it (so only the built-in tools this deployment has); a name in
 * `allowedTools` must exist. Every selected tool must be on the key's
 * allow-list, whichever way it was named; a name off the list is refused as
 * not allowed before its existence is looked at.
 */
export const selectTools = (
  promptType: PromptType | undefined,
  allowedTools: ReadonlyArray<string> | undefined,
  key: ApiKey,
  registry: Pick<ToolRegistry["Service"], "get" | "forPromptType">,
  collect: boolean
): ToolSelection | UnknownTool | ToolNotAllowed => {
  const names = new Set<string>()
  if (promptType !== undefined) {
    for (const tool of registry.forPromptType(promptType)) names.add(tool.name)
  }
  for (const name of allowedTools ?? []) names.add(name)

  const tools: Array<Tool> = []
  const rejected: Array<{ name: string; error: string }> = []
  for (const name of names) {
    // The allow-list first, as for models: a key cannot probe which tools (and MCP servers) exist.
    const tool = allowsTool(key, name) ? registry.get(name) : undefined
    if (tool === undefined) {
      const error = allowsTool(key, name) ? new UnknownTool({ tool: name }) : new ToolNotAllowed({ tool: name })
      if (!collect) return error
      rejected.push({ name, error: error.message })
    } else {
      tools.push(tool)
    }
  }
  return { tools, rejected }
}
