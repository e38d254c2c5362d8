import type { UIMessage } from "ai"
import { parleyToolName } from "../hostedTools.ts"
import { Refused } from "../refused.ts"
import { approvalOfItemId } from "./hostedMcp.ts"
import type { ApprovalRequestItem, ApprovalResponseItem, McpCallItem } from "./request.ts"

type Part = UIMessage["parts"][number]
export type ToolPart = Part & { type: "dynamic-tool" }

export const parsedArguments = (text: string, at: string): unknown => {
  try {
    return JSON.parse(text.trim() === "" ? "{}" : text)
  } catch {
    throw new Refused(`"${at}.arguments" must be JSON`)
  }
}

const errorText = (error: unknown): string => typeof error === "string" ? error : JSON.stringify(error)

/** A server tool call parley ran, sent back: the call and its outcome in one tool part, as parley names the tool. */
export const mcpCallPart = (item: McpCallItem, at: string): ToolPart => {
  const call = {
    type: "dynamic-tool",
    toolName: parleyToolName(item.server_label, item.name),
    toolCallId: item.id,
    input: parsedArguments(item.arguments, at)
  } as const
  return (item.error == null && item.status !== "failed"
    ? { ...call, state: "output-available", output: item.output ?? "" }
    : { ...call, state: "output-error", errorText: errorText(item.error ?? item.output ?? "failed") }) as ToolPart
}

/**
 * An approval request parley sent, sent back: the call waiting for its
 * answer, with the approval id and call id its item id carries (the
 * planner checks the signature over both, the tool and the input).
 */
export const approvalRequestPart = (item: ApprovalRequestItem, at: string): ToolPart => {
  const ids = approvalOfItemId(item.id)
  if (ids === undefined) {
    throw new Refused(`"${at}.id" is not the id of an mcp_approval_request parley sent: send the item as it came`)
  }
  return {
    type: "dynamic-tool",
    toolName: parleyToolName(item.server_label, item.name),
    toolCallId: ids.toolCallId,
    state: "approval-requested",
    input: parsedArguments(item.arguments, at),
    approval: { id: ids.approvalId }
  } as ToolPart
}

/** The answer to a request: the part as `/api/v1/chat` takes an answered approval (docs/DESIGN.md §10). */
export const answerApproval = (part: ToolPart, answer: ApprovalResponseItem): void => {
  const { id } = (part as { readonly approval: { readonly id: string } }).approval
  Object.assign(part, {
    state: "approval-responded",
    approval: { id, approved: answer.approve, ...(answer.reason == null ? {} : { reason: answer.reason }) }
  })
}
