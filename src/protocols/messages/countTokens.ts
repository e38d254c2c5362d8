import { ByteSize, Effect } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerResponse } from "effect/http"
import { ModelNotAllowed, UnknownModel } from "../../chat/planErrors.ts"
import { AppConfig } from "../../config/AppConfig.ts"
import { allowsModel } from "../../domain/ApiKey.ts"
import { parseJsonBody } from "../../domain/ChatRequest.ts"
import { tokenizerOf } from "../../domain/TokenizerName.ts"
import { makeKeyedRoute } from "../../http/keyedRoute.ts"
import { BodyTooLarge } from "../../http/requestErrors.ts"
import { ModelRegistry } from "../../models/ModelRegistry.ts"
import { counterFor } from "../../prune/tokenCount.ts"
import { anthropicErrorBody } from "../anthropic/error.ts"
import { decodeCountTokensRequest } from "./decode.ts"

/**
 * `POST /v1/messages/count_tokens` (docs/DESIGN.md §14): `{input_tokens}` of
 * a Messages body, counted as parley's pruner counts a conversation for the
 * model (its tokenizer, the system prompt, the client's tool definitions and
 * the messages). An estimate: parley's own tools named in `allowedTools`
 * and a `promptType`'s prompt are not counted. Same key rules and envelope
 * as `/v1/messages`; a routed route, for it runs no model.
 */
export const CountTokensRoute = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const keyed = yield* makeKeyedRoute(anthropicErrorBody)
    const registry = yield* ModelRegistry
    const { bodyLimitBytes } = yield* AppConfig
    yield* router.add("POST", "/v1/messages/count_tokens", (request) =>
      keyed(request, (key) =>
        Effect.gen(function*() {
          const text = yield* request.text.pipe(
            Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(bodyLimitBytes)),
            Effect.mapError(() => new BodyTooLarge({ limit: bodyLimitBytes }))
          )
          const { request: chat } = yield* decodeCountTokensRequest(yield* parseJsonBody(text))
          // The allow-list first, as the chat routes do, so a key cannot probe which models exist.
          if (!allowsModel(key, chat.model)) return yield* new ModelNotAllowed({ model: chat.model })
          const found = registry.find(chat.model)
          if (found === undefined) return yield* new UnknownModel({ model: chat.model })
          const counter = counterFor(tokenizerOf(found.entry))
          const tools = (chat.clientTools ?? []).map(({ description, inputSchema, name }) => ({
            name,
            description,
            inputSchema
          }))
          const input_tokens = counter.input(chat.systemPrompt ?? "", tools, chat.messages)
          return HttpServerResponse.jsonUnsafe({ input_tokens })
        })))
  })
)
