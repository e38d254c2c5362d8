import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Api } from "../api/Api.ts"
import { makeChatRoute } from "./chatRoute.ts"

// The gateway's server sends POST /api/v1/chat to the chat route before routing
// (GatewayServer); a chat request that reaches the router anyway (the routes
// served by a plain Node server) is handed to the same route here.
export const ChatHandlers = HttpApiBuilder.group(
  Api,
  "chat",
  Effect.fn(function*(handlers) {
    const route = yield* makeChatRoute
    return handlers.handleRaw("chat", ({ request }) =>
      Effect.callback<HttpServerResponse.HttpServerResponse>((resume) => {
        const res = NodeHttpServerRequest.toServerResponse(request) as ServerResponse
        // Written by the route; the router then sees an ended response and leaves it.
        res.once("close", () => resume(Effect.succeed(HttpServerResponse.empty())))
        route(NodeHttpServerRequest.toIncomingMessage(request) as IncomingMessage, res)
      }))
  })
)
