import type { Effect } from "effect"
import type { InvalidRequest, MalformedJson } from "../../domain/requestErrors.ts"
import type { ChatProtocol } from "../chatProtocol.ts"
import type { ErrorBody } from "../errorResponse.ts"

/** A client message that starts a turn: the body to decode, and whether the model is to answer it. */
export interface SocketTurn {
  readonly body: unknown
  /** False: a turn that only prepares the conversation (OpenAI's `generate: false`); nothing is generated. */
  readonly generate: boolean
}

/**
 * One WebSocket connection of a door (docs/DESIGN.md §14): what the door
 * gives the socket route for it. Made per connection, so that its turns can
 * share what the connection remembers.
 */
export interface SocketSession<Wire = any> {
  /** How this connection's turns are decoded and streamed. */
  readonly protocol: ChatProtocol<Wire>
  /** A text message as a turn, or why it is none. */
  readonly turn: (message: string) => Effect.Effect<SocketTurn, InvalidRequest | MalformedJson>
  /** A failure before a turn's stream began, as the door's error message. */
  readonly errorMessage: (error: ErrorBody) => string
  /** Each message a turn sends, as it leaves. */
  readonly sent?: ((data: string) => void) | undefined
}

/** A door's WebSocket mode: `GET` its path upgraded, each connection a session. */
export interface SocketDoor {
  readonly path: string
  /** The door's protocol: its upgrade's key header and refusals. */
  readonly protocol: ChatProtocol<any>
  readonly session: () => SocketSession
}
