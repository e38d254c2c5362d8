import { Effect } from "effect"
import type { Door } from "../door.ts"
import { isBackgroundStream, makeBackgroundStreamRoute } from "./backgroundRoutes.ts"
import { ResponsesApi } from "./contract.ts"
import { makeResponsesProtocol } from "./protocol.ts"
import { makeResponsesSocket } from "./socket.ts"
import { StoredResponsesRoutes } from "./storedRoutes.ts"

/**
 * OpenAI's `POST /v1/responses`, its stored responses, its background responses' events and its WebSocket
 * mode (docs/DESIGN.md §14, §16).
 */
export const responsesDoor = {
  protocol: makeResponsesProtocol,
  hotRoutes: Effect.map(makeBackgroundStreamRoute, (route) => [{ matches: isBackgroundStream, route }]),
  contract: ResponsesApi,
  routes: StoredResponsesRoutes,
  socket: makeResponsesSocket
} satisfies Door<any>
