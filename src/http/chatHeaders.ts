import type { ChatPlan } from "../chat/chatPlan.ts"

/** The headers of a chat answer: the correlation id and what the plan changed (docs/DESIGN.md §3.11). */
export const planHeaders = (plan: ChatPlan, correlationId: string): Record<string, string> => {
  const headers: Record<string, string> = {}
  if (plan._tag === "Run") {
    if (plan.pruned) headers["x-message-pruned"] = "true"
    if (plan.tools.skipped.length > 0) headers["x-tools-skipped"] = plan.tools.skipped.join(",")
  }
  headers["x-correlation-id"] = correlationId
  return headers
}
