import { InvalidRequest } from "../domain/requestErrors.ts"
import type { InternalChatRequest } from "./chatRequest.ts"

/**
 * The client's tools beside parley's (docs/DESIGN.md §14): a name both use
 * would leave a call's runner in doubt, and a forced tool choice must name
 * a tool the model is offered. Undefined when all is well.
 */
export const checkClientTools = (
  chat: InternalChatRequest,
  serverTools: ReadonlyArray<string>
): InvalidRequest | undefined => {
  const issues: Array<string> = []
  const server = new Set(serverTools)
  const client = new Set<string>()
  for (const tool of chat.clientTools ?? []) {
    if (server.has(tool.name)) {
      issues.push(
        `"${tool.path}" names parley's own tool "${tool.name}", which this request runs on the server: rename it`
      )
    } else if (client.has(tool.name)) issues.push(`"${tool.path}" repeats the tool name "${tool.name}"`)
    client.add(tool.name)
  }
  const choice = chat.toolChoice
  if (choice?.type === "tool" && !client.has(choice.toolName) && !server.has(choice.toolName)) {
    issues.push(`"tool_choice" names "${choice.toolName}", which is not among the request's tools`)
  }
  return issues.length === 0 ? undefined : new InvalidRequest({ issues })
}
