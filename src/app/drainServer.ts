import { Duration, Effect, Exit, Scope } from "effect"
import type { Server } from "node:http"
import type { Drain } from "../http/ServerDrain.ts"

// After the cancelled requests' last words are written, they get this long to reach their clients.
const FLUSH_MS = 2_000

// Resolves once the listener and every connection are closed.
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

const untilIdle = (drain: Drain, ms: number) =>
  Effect.promise(() => drain.idle()).pipe(Effect.timeoutOption(Duration.millis(ms)), Effect.asVoid)

/**
 * Stops the server as docs/DESIGN.md §8 says: it stops accepting (the
 * listener closes, `/ready` answers 503, answers not yet begun say
 * `Connection: close`), the running requests get `graceMs` to finish, then
 * the rest are cancelled: a chat request answers that the server is shutting
 * down (an `error` and a `finish` chunk, or 503) and its tools are killed;
 * a routed one is interrupted with its scope, `requests`. When this returns,
 * no request runs and no connection is left, so the services' finalizers
 * (the ledger's flush among them) run after every request.
 */
export const drainServer = (server: Server, drain: Drain, requests: Scope.Closeable, graceMs: number) =>
  Effect.gen(function*() {
    drain.start()
    const stopped = close(server)
    yield* untilIdle(drain, graceMs)
    if (drain.size > 0) yield* Effect.logWarning(`Shutting down: cancelling ${drain.size} request(s) still running`)
    drain.cancelAll()
    yield* Scope.close(requests, Exit.void)
    yield* untilIdle(drain, FLUSH_MS)
    server.closeAllConnections()
    yield* Effect.promise(() => stopped)
  })
