import { Duration, Effect, Exit, Scope } from "effect"
import type { Server } from "node:http"
import type { Drain } from "../http/ServerDrain.ts"

// The cancelled requests get this long to stop and for their last words to reach their clients.
const FLUSH_MS = 2_000

// Resolves once the listener and every connection are closed.
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

const untilIdle = (drain: Drain, ms: number) =>
  Effect.promise(() => drain.idle()).pipe(Effect.timeoutOption(Duration.millis(ms)), Effect.asVoid)

/**
 * Stops the server as docs/DESIGN.md §8 says: it stops accepting (the
 * listener closes, `/ready` answers 503, answers not yet begun say
 * `Connection: close`), the running requests get `graceMs` to finish, then
 * the rest are cancelled: each answers that the server is shutting down (a
 * chat stream with an `error` and a `finish` chunk, any other answer not yet
 * begun with 503 in the spec's error body) and its work is stopped (the
 * tools killed). Whatever still runs after that is interrupted with its
 * scope, `requests`. When this returns, no request runs and no connection is
 * left, so the services' finalizers (the ledger's flush among them) run
 * after every request.
 */
export const drainServer = (server: Server, drain: Drain, requests: Scope.Closeable, graceMs: number) =>
  Effect.gen(function*() {
    drain.start()
    const stopped = close(server)
    yield* untilIdle(drain, graceMs)
    if (drain.size > 0) yield* Effect.logWarning(`Shutting down: cancelling ${drain.size} request(s) still running`)
    drain.cancelAll()
    // Not at once: a routed request answers from its own fiber, which closing the scope would interrupt first.
    yield* untilIdle(drain, FLUSH_MS)
    yield* Scope.close(requests, Exit.void)
    server.closeAllConnections()
    yield* Effect.promise(() => stopped)
  })
