import type { PromptType } from "../domain/PromptType.ts"
import type { Tool } from "./Tool.ts"
import type { ToolNotAllowed, UnknownTool } from "./toolErrors.ts"
import type { ToolRegistry } from "./ToolRegistry.ts"

export interface ToolSelection {
  readonly tools: ReadonlyArray<Tool>
  /** Tools that could not be selected, with why; filled only when `collect` is set (reports). */
  readonly rejected: ReadonlyArray<{ readonly name: string; readonly error: string }>
}

/**
 * docs/spec.md, POST /chat rule 4: a valid promptType's tool set united with `allowedTools`;
 * neither means no tools. A promptType's set is the registered tools that
 * declare it (so only the built-in tools this deployment has). Each name,
 * whichever way it was named, is admitted by `admit`: the key's allow-list
 * and the tool's existence (governance/Admission.ts).
 */
export const selectTools = (
  promptType: PromptType | undefined,
  allowedTools: ReadonlyArray<string> | undefined,
  registry: Pick<ToolRegistry["Service"], "forPromptType">,
  admit: (name: string) => Tool | UnknownTool | ToolNotAllowed,
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
    const tool = admit(name)
    if ("_tag" in tool) {
      if (!collect) return tool
      rejected.push({ name, error: tool.message })
    } else {
      tools.push(tool)
    }
  }
  return { tools, rejected }
}
