import type { UIMessage } from "ai"
import type { ChatRequest } from "../domain/ChatRequest.ts"

/**
 * The one chat request the planner takes, whatever door it came through
 * (docs/DESIGN.md §14): a protocol decodes its body into this, and the
 * planner never sees a raw body. The conversation is in UIMessage form,
 * normalized, because pruning, approvals and the tool loop work on that form.
 */
export type InternalChatRequest = Omit<ChatRequest, "messages"> & {
  readonly messages: ReadonlyArray<UIMessage>
}
