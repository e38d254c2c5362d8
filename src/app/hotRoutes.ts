import { Effect } from "effect"
import { chatRouteOf } from "../domain/protocols.ts"
import { makeHotRoute, type NodeRoute } from "../http/hotRoute.ts"
import { KeptReplays } from "../http/KeptReplays.ts"
import { makeSocketRoute, type UpgradeRoute } from "../http/socket/socketRoute.ts"
import type { PatternRoute } from "../protocols/door.ts"
import { doorList } from "./doors.ts"
import { keptReplaysOf, makeDoorProtocols } from "./keptReplays.ts"

/**
 * The routes answered on Node's own request and response: each door's chat route by `METHOD path`, then its
 * own by pattern; and the doors' WebSocket modes by path (`upgrades`).
 */
export interface HotRoutes {
  readonly exact: ReadonlyMap<string, NodeRoute>
  readonly patterns: ReadonlyArray<PatternRoute>
  readonly upgrades: ReadonlyMap<string, UpgradeRoute>
}

/**
 * From the door table (docs/DESIGN.md §14): each door's chat route, and the
 * routes of its own (the `ui` door's kept runs resumed and stopped, the
 * Responses door's background responses streamed, §16), and its WebSocket
 * mode (§14). Everything else goes to the router.
 */
export const makeHotRoutes = Effect.gen(function*() {
  const made = yield* makeDoorProtocols
  const exact = new Map<string, NodeRoute>()
  const patterns: Array<PatternRoute> = []
  const upgrades = new Map<string, UpgradeRoute>()
  for (const [name, door] of doorList) {
    exact.set(chatRouteOf(name), yield* makeHotRoute(made.get(name)!))
    if (door.hotRoutes !== undefined) {
      patterns.push(...yield* door.hotRoutes.pipe(Effect.provideService(KeptReplays, keptReplaysOf(made))))
    }
    if (door.socket !== undefined) {
      const socket = yield* door.socket
      upgrades.set(socket.path, yield* makeSocketRoute(socket))
    }
  }
  return { exact, patterns, upgrades } satisfies HotRoutes
})

/** The hot route of a request: its method and its path without the query, else the first door route whose pattern matches. */
export const hotRouteOf = (
  routes: HotRoutes,
  method: string | undefined,
  url: string | undefined
): NodeRoute | undefined => {
  if (url === undefined) return undefined
  const query = url.indexOf("?")
  const route = routes.exact.get(`${method} ${query === -1 ? url : url.slice(0, query)}`)
  if (route !== undefined) return route
  for (const pattern of routes.patterns) if (pattern.matches(method, url)) return pattern.route
  return undefined
}

/** The WebSocket mode a request to upgrade asks for: `GET` a door's path (without the query), `Upgrade: websocket`. */
export const upgradeRouteOf = (
  routes: HotRoutes,
  method: string | undefined,
  url: string | undefined,
  upgrade: string | undefined
): UpgradeRoute | undefined => {
  if (method !== "GET" || url === undefined || upgrade?.toLowerCase() !== "websocket") return undefined
  const query = url.indexOf("?")
  return routes.upgrades.get(query === -1 ? url : url.slice(0, query))
}
