import type { Effect, Layer } from "effect"
import type { HttpApiGroup } from "effect/http-api"
import type { ChatProtocol } from "../http/chatProtocol.ts"
import type { NodeRoute } from "../http/hotRoute.ts"
import type { SocketDoor } from "../http/socket/socketSession.ts"

/** A route of a door's own on Node's request and response, beside its chat route, found by its method and URL. */
export interface PatternRoute {
  readonly matches: (method: string | undefined, url: string) => boolean
  readonly route: NodeRoute
}

/**
 * What one door's folder (`src/protocols/<name>/door.ts`) gives the app
 * (docs/DESIGN.md §2, §14): its row of the door table (`app/doors.ts`),
 * under its name in `domain/protocols.ts`. `R`, `H`, `L`, `S`: the services its protocol, its hot routes, its
 * side routes and its WebSocket mode are made from.
 */
export interface Door<R, H = R, L = R, S = R> {
  /** The chat protocol its chat route (`POST` its first path) speaks. */
  readonly protocol: Effect.Effect<ChatProtocol<any>, never, R>
  /** Routes of its own answered before the router (resuming kept runs, a background response's events). */
  readonly hotRoutes?: Effect.Effect<ReadonlyArray<PatternRoute>, never, H> | undefined
  /** Its endpoints in the contract (/openapi.json, /docs), declared in its folder above the API layer. */
  readonly contract?: HttpApiGroup.Constraint | undefined
  /** Its side routes the router serves (stored responses, count_tokens). */
  readonly routes?: Layer.Layer<never, never, L> | undefined
  /** Its WebSocket mode (the Responses door's): `GET` its path upgraded, each message a turn. */
  readonly socket?: Effect.Effect<SocketDoor, never, S> | undefined
}
