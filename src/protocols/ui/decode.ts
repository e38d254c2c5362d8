import type { UIMessage } from "ai"
import { Effect } from "effect"
import type { InternalChatRequest } from "../../chat/chatRequest.ts"
import { decodeChatRequest } from "../../domain/ChatRequest.ts"
import { normalizeMessages } from "../../domain/Message.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import { uiConversation } from "./conversation.ts"

/**
 * The spec's ChatRequest body as the internal request, and its messages in
 * UIMessage form (either form normalized), which a JSON answer repeats.
 */
export const decodeUiRequest = (
  body: unknown
): Effect.Effect<{ readonly request: InternalChatRequest; readonly input: ReadonlyArray<UIMessage> }, InvalidRequest> =>
  Effect.flatMap(decodeChatRequest(body), (chat) => {
    const input = normalizeMessages(chat.messages)
    return Effect.map(uiConversation(input), (conversation) => ({ request: { ...chat, ...conversation }, input }))
  })

/** A chat id a resumable run is kept under: it goes into a URL path and a store key as it is. */
const chatId = /^[A-Za-z0-9_.:-]{1,128}$/

/**
 * The id a run is kept under when its client may leave (`onDisconnect: "continue"`, docs/DESIGN.md §16);
 * undefined for a run that ends with its client. Such a run needs its chat's `id` and a streamed answer.
 */
export const keptIdOf = (request: InternalChatRequest): Effect.Effect<string | undefined, InvalidRequest> => {
  if (request.onDisconnect !== "continue") return Effect.undefined
  const issues: Array<string> = []
  if (request.id === undefined) issues.push(`onDisconnect: "continue" needs the chat's "id"`)
  else if (!chatId.test(request.id)) {
    issues.push(`id: must be 1 to 128 letters, digits or _.:- for onDisconnect: "continue"`)
  }
  if (!request.stream) issues.push(`onDisconnect: "continue" needs a streamed answer (stream: true)`)
  return issues.length === 0 ? Effect.succeed(request.id) : Effect.fail(new InvalidRequest({ issues }))
}
