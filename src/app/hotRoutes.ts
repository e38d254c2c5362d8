import { Effect } from "effect"
import { makeHotRoute, type NodeRoute } from "../http/hotRoute.ts"
import { KeptReplays } from "../http/KeptReplays.ts"
import { keptRunRouteKey, makeKeptRunRoutes } from "../http/keptRunRoutes.ts"
import { chatCompletionsProtocol } from "../protocols/chat-completions/protocol.ts"
import { makeMessagesProtocol } from "../protocols/messages/protocol.ts"
import {
  backgroundStreamKey,
  isBackgroundStream,
  makeBackgroundStreamRoute
} from "../protocols/responses/backgroundRoutes.ts"
import { makeResponsesProtocol } from "../protocols/responses/protocol.ts"
import { uiProtocol } from "../protocols/ui/protocol.ts"
import { keptReplays } from "./keptReplays.ts"

/** The routes answered on Node's own request and response, by `METHOD path`. */
export type HotRoutes = ReadonlyMap<string, NodeRoute>

/**
 * One row per protocol route (docs/DESIGN.md §14): adding a protocol is
 * adding its folder and a row here. Everything else goes to the router.
 * The `ui` protocol's resumable runs are resumed and stopped here too, and
 * the Responses door's background responses streamed (§16).
 */
export const makeHotRoutes = Effect.map(
  Effect.all([
    makeHotRoute(uiProtocol),
    makeHotRoute(chatCompletionsProtocol),
    Effect.flatMap(makeResponsesProtocol, makeHotRoute),
    Effect.flatMap(makeMessagesProtocol, makeHotRoute),
    makeKeptRunRoutes(uiProtocol),
    makeBackgroundStreamRoute
  ]).pipe(Effect.provideService(KeptReplays, keptReplays)),
  ([ui, chatCompletions, responses, messages, keptRuns, backgroundStream]): HotRoutes =>
    new Map([
      ["POST /api/v1/chat", ui],
      ["POST /v1/chat/completions", chatCompletions],
      ["POST /v1/responses", responses],
      ["POST /v1/messages", messages],
      [backgroundStreamKey, backgroundStream],
      ...keptRuns
    ])
)

/** The hot route of a request: its method and its path without the query (a kept run's path by its pattern, a background response's stream by its query). */
export const hotRouteOf = (
  routes: HotRoutes,
  method: string | undefined,
  url: string | undefined
): NodeRoute | undefined => {
  if (url === undefined) return undefined
  const query = url.indexOf("?")
  const route = routes.get(`${method} ${query === -1 ? url : url.slice(0, query)}`)
  if (route !== undefined) return route
  if (isBackgroundStream(method, url)) return routes.get(backgroundStreamKey)
  if (!url.startsWith("/api/v1/chat/")) return undefined
  const kept = keptRunRouteKey(method, url)
  return kept === undefined ? undefined : routes.get(kept)
}
