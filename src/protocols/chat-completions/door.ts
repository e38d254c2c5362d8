import { Effect } from "effect"
import type { Door } from "../door.ts"
import { ChatCompletionsApi } from "./contract.ts"
import { chatCompletionsProtocol } from "./protocol.ts"

/** OpenAI's `POST /v1/chat/completions` (docs/DESIGN.md §14). */
export const chatCompletionsDoor = {
  protocol: Effect.succeed(chatCompletionsProtocol),
  contract: ChatCompletionsApi
} satisfies Door<unknown>
