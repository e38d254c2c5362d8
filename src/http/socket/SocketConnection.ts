import type { Fiber } from "effect"
import type { Duplex } from "node:stream"
import type { RawData, WebSocket } from "ws"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import { uuidV7 } from "../CorrelationId.ts"
import { ServerShuttingDown } from "../requestErrors.ts"
import { SocketChannel } from "./SocketChannel.ts"
import type { SocketSession } from "./socketSession.ts"

/** Starts a turn of a connection for one text message (`socketTurns.ts`). */
export type StartTurn = (connection: SocketConnection, text: string) => Fiber.Fiber<unknown, unknown>

const BUSY = "a response is in progress on this connection: send the next message after its last event, " +
  "or open another connection to run responses side by side"
const NOT_TEXT = "each message is one JSON object sent as text, not binary"

// The WebSocket close code of a server going away (RFC 6455 §7.4.1).
const GOING_AWAY = 1001

/** Where a connection came from and how long it may stay idle. */
export interface ConnectionOptions {
  readonly path: string
  /** The upgrade's credentials, verified again at each turn. */
  readonly authorization: string | undefined
  readonly apiKey: string | undefined
  /** `PARLEY_KEEPALIVE_TIMEOUT`: how long it stays open with no turn running and no message. */
  readonly idleMs: number
}

/**
 * One client's WebSocket on a door (docs/DESIGN.md §14): its messages turns,
 * one at a time (one sent while a turn runs is refused, the turn going on),
 * its close cancelling the turn that runs. Told to go (the server drains),
 * it closes once no turn runs; idle past the keep-alive timeout, it closes
 * too (1000), so a quiet client holds no socket and no remembered
 * conversation for long; a client that comes back opens another.
 */
export class SocketConnection {
  readonly channel: SocketChannel
  readonly session: SocketSession
  readonly path: string
  /** The upgrade's credentials, verified again at each turn. */
  readonly authorization: string | undefined
  readonly apiKey: string | undefined
  private readonly ws: WebSocket
  private readonly startTurn: StartTurn
  private turn: Fiber.Fiber<unknown, unknown> | undefined = undefined
  private leaving = false
  private readonly idleMs: number
  private lastActive = Date.now()
  private idleTimer: ReturnType<typeof setTimeout> | undefined = undefined

  constructor(ws: WebSocket, socket: Duplex, session: SocketSession, startTurn: StartTurn, options: ConnectionOptions) {
    this.ws = ws
    this.channel = new SocketChannel(ws, socket)
    this.session = session
    this.path = options.path
    this.authorization = options.authorization
    this.apiKey = options.apiKey
    this.idleMs = options.idleMs
    this.startTurn = startTurn
    ws.on("message", (data, isBinary) => this.message(data, isBinary))
    ws.on("close", () => {
      clearTimeout(this.idleTimer)
      this.turn?.interruptUnsafe()
    })
    // A connection's failure (a reset, a frame too large) closes it; the turn goes with it.
    ws.on("error", () => ws.terminate())
    this.armIdle(this.idleMs)
  }

  // One timer a connection, re-armed only when it fires: a message costs a clock read, not a timer.
  private armIdle(ms: number): void {
    this.idleTimer = setTimeout(this.idleCheck, ms)
    this.idleTimer.unref()
  }

  private readonly idleCheck = (): void => {
    const quiet = Date.now() - this.lastActive
    if (this.turn === undefined && quiet >= this.idleMs) return this.ws.close(1000, "idle")
    this.armIdle(this.turn === undefined ? this.idleMs - quiet : this.idleMs)
  }

  /** One message, outside any turn's stream (a refusal); one that cannot be written cuts the connection. */
  send(message: string): void {
    try {
      this.channel.send([message])
    } catch {
      this.terminate()
    }
  }

  private refuse(failure: InvalidRequest | ServerShuttingDown): void {
    this.send(this.session.errorMessage(this.session.protocol.errorBody(failure, uuidV7(), undefined)))
  }

  private message(data: RawData, isBinary: boolean): void {
    this.lastActive = Date.now()
    if (this.leaving) return this.refuse(new ServerShuttingDown())
    if (this.turn !== undefined) return this.refuse(new InvalidRequest({ issues: [BUSY] }))
    if (isBinary) return this.refuse(new InvalidRequest({ issues: [NOT_TEXT] }))
    const turn = this.startTurn(this, data.toString())
    // A turn refused at once (its body, say) has ended already.
    if (turn.pollUnsafe() !== undefined) return
    this.turn = turn
    turn.addObserver(this.turnEnded)
  }

  private readonly turnEnded = (): void => {
    this.turn = undefined
    this.lastActive = Date.now()
    if (this.leaving) this.ws.close(GOING_AWAY, "server shutting down")
  }

  /** The server drains: the connection closes once its turn, if one runs, ended. */
  goAway(): void {
    this.leaving = true
    if (this.turn === undefined) this.ws.close(GOING_AWAY, "server shutting down")
  }

  /** Cut at once (the server's last stop, or an answer that could not be written). */
  terminate(): void {
    this.ws.terminate()
  }
}
