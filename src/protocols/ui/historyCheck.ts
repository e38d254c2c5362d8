import type { UIMessage } from "ai"
import { InvalidHistory } from "../../domain/requestErrors.ts"

interface ToolPartView {
  readonly type: string
  readonly toolName?: string
  readonly toolCallId: string
  readonly state: string
  readonly providerExecuted?: boolean
  readonly approval?: { readonly approved?: boolean }
}

export const isToolPart = (part: { readonly type: string }) =>
  part.type === "dynamic-tool" || part.type.startsWith("tool-")

/**
 * Whether the AI SDK's conversion sends this part as a tool call with no
 * result after it (which it then refuses): a call still waiting for input
 * is dropped, a provider-executed one answered by the provider, and an
 * approval request is dropped once a later user message superseded it. An
 * approved call in the last message is the run's to carry out first
 * (docs/DESIGN.md §10), as `streamText` does; anywhere else it lacks its result.
 */
const lacksResult = (part: ToolPartView, superseded: boolean, last: boolean): boolean => {
  if (part.providerExecuted === true) return false
  switch (part.state) {
    case "input-available":
      return true
    case "approval-requested":
      return !superseded
    case "approval-responded":
      return part.approval?.approved !== false && !last
    default:
      return false
  }
}

/**
 * The first place in a decoded conversation that the model cannot be sent
 * (docs/DESIGN.md §3.18), checked before the run so that a stream never
 * starts for it. Message shapes were checked by decoding; this finds what
 * only the conversation as a whole shows. Paths index the client's messages.
 */
export const checkHistory = (messages: ReadonlyArray<UIMessage>): InvalidHistory | undefined => {
  const lastUser = messages.findLastIndex((message) => message.role === "user")
  for (let m = 0; m < messages.length; m++) {
    const message = messages[m]!
    if (message.role !== "assistant") continue
    const superseded = lastUser > 0 && m < lastUser
    for (let p = 0; p < message.parts.length; p++) {
      const part = message.parts[p]!
      if (!isToolPart(part) || !lacksResult(part as ToolPartView, superseded, m === messages.length - 1)) continue
      const { toolCallId, toolName, type } = part as ToolPartView
      return new InvalidHistory({
        path: `messages[${m}].parts[${p}]`,
        problem:
          `is a call of tool "${
            toolName ?? type.slice("tool-".length)
          }" (toolCallId "${toolCallId}") without its result: ` +
          `send the result in that part (state "output-available" or "output-error") or leave the call out`
      })
    }
  }
  return undefined
}
