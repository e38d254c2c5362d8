import { Context, Deferred, Effect, Exit } from "effect"
import type { ServerResponse } from "node:http"
import { ServerShuttingDown } from "./requestErrors.ts"

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
  private running = new Map<ServerResponse | Cancel, Cancel | undefined>()
  private waiters: Array<() => void> = []
  private connections = new Set<Cancel>()
  private over = Deferred.makeUnsafe<never, ServerShuttingDown>()
  draining = false

  /**
   * Fails with `ServerShuttingDown` once the grace is over (`cancelAll`), at
   * once for a request that comes later: a routed request races it, so it
   * answers the spec's error body instead of being cut off by its scope.
   */
  readonly cancelled: Effect.Effect<never, ServerShuttingDown> = Deferred.await(this.over)

  /** Follows `res` until it closes; `cancel` (the chat route's) stops it when the grace is over, at once if it is. */
  track(res: ServerResponse, cancel?: Cancel): void {
    this.running.set(res, cancel)
    res.once("close", () => this.release(res))
    if (Deferred.isDoneUnsafe(this.over)) cancel?.()
  }

  /**
   * Holds a run that goes on without its client (docs/DESIGN.md §16) as a
   * request: waited for, and cancelled once the grace is over. Returns its release.
   */
  hold(cancel: Cancel): () => void {
    this.running.set(cancel, cancel)
    if (Deferred.isDoneUnsafe(this.over)) cancel()
    return () => this.release(cancel)
  }

  /**
   * A WebSocket connection between its turns (docs/DESIGN.md §14): told to go (`goAway`) once the server
   * drains, at once if it does; its turns are held as requests are. Returns its release.
   */
  connection(goAway: Cancel): () => void {
    if (this.draining) {
      goAway()
      return () => {}
    }
    this.connections.add(goAway)
    return () => this.connections.delete(goAway)
  }

  private release(held: ServerResponse | Cancel): void {
    this.running.delete(held)
    if (this.running.size === 0) { for (const waiter of this.waiters.splice(0)) waiter() }
  }

  start(): void {
    this.draining = true
    for (const goAway of this.connections) goAway()
    this.connections.clear()
    // Node sends `Connection: close` with an answer that has not begun and closes the connection after it.
    for (const held of this.running.keys()) {
      if (typeof held !== "function" && !held.headersSent) held.shouldKeepAlive = false
    }
  }

  /** Resolves once no request is running. */
  idle(): Promise<void> {
    if (this.running.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  get size(): number {
    return this.running.size
  }

  /** Cancels every request: the chat route's through their `Cancel`, the routed ones through `cancelled`. */
  cancelAll(): void {
    Deferred.doneUnsafe(this.over, Exit.fail(new ServerShuttingDown()))
    for (const cancel of this.running.values()) cancel?.()
  }
}

/** The server's `Drain`, for `/ready` (docs/DESIGN.md §8). */
export class ServerDrain extends Context.Service<ServerDrain, Drain>()("parley/http/ServerDrain") {}
