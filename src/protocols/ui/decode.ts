import { Effect } from "effect"
import type { InternalChatRequest } from "../../chat/chatRequest.ts"
import { decodeChatRequest } from "../../domain/ChatRequest.ts"
import { normalizeMessages } from "../../domain/Message.ts"
import type { InvalidRequest } from "../../domain/requestErrors.ts"

/** The spec's ChatRequest body as the internal request: its messages, in either form, become UIMessages. */
export const decodeUiRequest = (body: unknown): Effect.Effect<InternalChatRequest, InvalidRequest> =>
  Effect.map(decodeChatRequest(body), (chat) => ({ ...chat, messages: normalizeMessages(chat.messages) }))
