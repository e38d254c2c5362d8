import { Effect } from "effect"
import { keptRunRouteKey, makeKeptRunRoutes } from "../../http/keptRunRoutes.ts"
import type { Door } from "../door.ts"
import { uiProtocol } from "./protocol.ts"

/** The spec's `POST /api/v1/chat`, and the resume and stop routes of its kept runs (docs/DESIGN.md §16). */
export const uiDoor = {
  protocol: Effect.succeed(uiProtocol),
  hotRoutes: Effect.map(makeKeptRunRoutes(uiProtocol), (routes) =>
    [...routes].map(([key, route]) => ({
      matches: (method: string | undefined, url: string) => keptRunRouteKey(method, url) === key,
      route
    })))
} satisfies Door<unknown>
