import { Api } from "../api/Api.ts"
import { ChatCompletionsApi } from "../protocols/chat-completions/contract.ts"
import { MessagesApi } from "../protocols/messages/contract.ts"
import { ResponsesApi } from "../protocols/responses/contract.ts"

/**
 * The whole contract as /openapi.json and /docs declare it: the API's, and
 * each protocol's door, whose wire schemas live in its own folder
 * (docs/DESIGN.md §14), above the API layer.
 */
export const Contract = Api.add(ChatCompletionsApi).add(ResponsesApi).add(MessagesApi)
