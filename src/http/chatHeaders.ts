import type { ChatPlan } from "../chat/chatPlan.ts"
import { headerList } from "./headerTokens.ts"

/** The most of `X-Tools-Skipped` an answer carries (docs/api.md): names past it are left out of the header. */
export const TOOLS_SKIPPED_MAX_LENGTH = 1024

/** The headers of a chat answer: the correlation id and what the plan changed (docs/DESIGN.md §3.11). */
export const planHeaders = (plan: ChatPlan, correlationId: string): Record<string, string> => {
  const headers: Record<string, string> = {}
  if (plan._tag === "Run") {
    if (plan.pruned) headers["x-message-pruned"] = "true"
    // The names are the client's (a hosted tool parley lacks, an MCP tool it named): encoded unless safe tokens.
    const skipped = headerList(plan.tools.skipped, TOOLS_SKIPPED_MAX_LENGTH)
    if (skipped !== "") headers["x-tools-skipped"] = skipped
  }
  headers["x-correlation-id"] = correlationId
  return headers
}
