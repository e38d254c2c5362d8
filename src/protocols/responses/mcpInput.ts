import { parleyToolName } from "../hostedTools.ts"
import { Refused } from "../refused.ts"
import { parsedArguments } from "../toolArguments.ts"
import { approvalOfItemId } from "./hostedMcp.ts"
import type { ApprovalRequestItem, McpCallItem } from "./request.ts"
import type { Call } from "./turns.ts"

const errorText = (error: unknown): string => typeof error === "string" ? error : JSON.stringify(error)

/** A server tool call parley ran, sent back: the call and its outcome, as parley names the tool. */
export const mcpCall = (item: McpCallItem, at: string): Call => {
  const call = {
    type: "call",
    toolName: parleyToolName(item.server_label, item.name),
    toolCallId: item.id,
    input: parsedArguments(item.arguments, `${at}.arguments`),
    place: at
  } as const
  return item.error == null && item.status !== "failed"
    ? { ...call, result: { output: { type: "text", value: item.output ?? "" }, place: at } }
    : {
      ...call,
      // A failed call's `null` arguments reach the model as none, as they did through the AI SDK's UI messages.
      input: call.input ?? undefined,
      result: { output: { type: "error-text", value: errorText(item.error ?? item.output ?? "failed") }, place: at }
    }
}

/**
 * An approval request parley sent, sent back: the call waiting for its
 * answer, with the approval id and call id its item id carries (the
 * planner checks the signature over both, the tool and the input).
 */
export const approvalRequest = (item: ApprovalRequestItem, at: string): Call => {
  const ids = approvalOfItemId(item.id)
  if (ids === undefined) {
    throw new Refused(`"${at}.id" is not the id of an mcp_approval_request parley sent: send the item as it came`)
  }
  return {
    type: "call",
    toolName: parleyToolName(item.server_label, item.name),
    toolCallId: ids.toolCallId,
    input: parsedArguments(item.arguments, `${at}.arguments`),
    place: at,
    approval: { id: ids.approvalId }
  }
}
