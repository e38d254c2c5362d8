import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { makeHandleChat } from "./chatHandler.ts"
import { errorResponse } from "./errorResponse.ts"

// Raw: the body is read and decoded by parley itself, so every bad input gets
// the spec's 400 body rather than the framework's.
export const ChatHandlers = HttpApiBuilder.group(
  Api,
  "chat",
  Effect.fn(function*(handlers) {
    const handleChat = yield* makeHandleChat
    return handlers.handleRaw("chat", ({ request }) => handleChat(request).pipe(Effect.catch(errorResponse)))
  })
)
