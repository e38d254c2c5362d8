import type { Duplex } from "node:stream"
import type { WebSocket } from "ws"
import { drainOf } from "../EncodedStream.ts"

/**
 * How much a slow client may leave unsent before a turn waits for it, as
 * an HTTP stream may (`SseWriter`): one slow connection holds about this much.
 */
const HIGH_WATER_BYTES = 1024 * 1024

/**
 * One client's WebSocket as a turn writes to it (docs/DESIGN.md §14): text
 * messages sent in batches, each batch one write to the socket, and whether
 * the client is behind.
 */
export class SocketChannel {
  private readonly ws: WebSocket
  private readonly socket: Duplex
  private drained: Promise<void> = Promise.resolve()
  private clientBehind = false

  constructor(ws: WebSocket, socket: Duplex) {
    this.ws = ws
    this.socket = socket
  }

  /** The client closed, or the connection is gone: nothing more reaches it. */
  get gone(): boolean {
    return this.ws.readyState !== this.ws.OPEN
  }

  /** Messages sent at once: corked, so that one event loop turn's events leave in one write. */
  send(messages: ReadonlyArray<string>): void {
    if (this.gone) return
    this.socket.cork()
    try {
      for (const message of messages) this.ws.send(message)
    } finally {
      this.socket.uncork()
    }
    if (this.ws.bufferedAmount > HIGH_WATER_BYTES && !this.clientBehind) this.fallBehind()
  }

  get behind(): boolean {
    return this.clientBehind
  }

  readonly caughtUp = (): Promise<void> => this.drained

  private fallBehind(): void {
    this.clientBehind = true
    this.drained = drainOf(this.socket).then(() => {
      this.clientBehind = false
    })
  }
}
