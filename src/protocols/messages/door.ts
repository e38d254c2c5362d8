import type { Door } from "../door.ts"
import { MessagesApi } from "./contract.ts"
import { CountTokensRoute } from "./countTokens.ts"
import { makeMessagesProtocol } from "./protocol.ts"

/** Anthropic's `POST /v1/messages` and its `count_tokens` (docs/DESIGN.md §14). */
export const messagesDoor = {
  protocol: makeMessagesProtocol,
  contract: MessagesApi,
  routes: CountTokensRoute
} satisfies Door<any>
