import { Context } from "effect"
import type { ServerResponse } from "node:http"

/** Stops one request still running when the grace is over: it answers that the server is shutting down. */
export type Cancel = () => void

/**
 * The requests a server is answering, and whether it is draining
 * (docs/DESIGN.md §8). Once draining, `/ready` answers 503, every answer not
 * yet begun says `Connection: close` (the server sets it on new ones), and the server waits for the running
 * requests (`idle`) before it cancels the rest (`cancelAll`). Plain
 * JavaScript: every request passes through `track`.
 */
export class Drain {
  private running = new Map<ServerResponse, Cancel | undefined>()
  private waiters: Array<() => void> = []
  draining = false

  /** Follows `res` until it closes; `cancel` (the chat route's) stops it when the grace is over. */
  track(res: ServerResponse, cancel?: Cancel): void {
    this.running.set(res, cancel)
    res.once("close", () => {
      this.running.delete(res)
      if (this.running.size === 0) { for (const waiter of this.waiters.splice(0)) waiter() }
    })
  }

  start(): void {
    this.draining = true
    // Node sends `Connection: close` with an answer that has not begun and closes the connection after it.
    for (const res of this.running.keys()) if (!res.headersSent) res.shouldKeepAlive = false
  }

  /** Resolves once no request is running. */
  idle(): Promise<void> {
    if (this.running.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  get size(): number {
    return this.running.size
  }

  /** Cancels every request that can be; the others (routed ones) stop when their scope closes. */
  cancelAll(): void {
    for (const cancel of this.running.values()) cancel?.()
  }
}

/** The server's `Drain`, for `/ready` (docs/DESIGN.md §8). */
export class ServerDrain extends Context.Service<ServerDrain, Drain>()("parley/http/ServerDrain") {}
