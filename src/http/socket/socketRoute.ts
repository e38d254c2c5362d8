import { Cause, Effect } from "effect"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { WebSocketServer } from "ws"
import { ApiKeys } from "../../auth/ApiKeys.ts"
import { AppConfig } from "../../config/AppConfig.ts"
import type { ApiKey } from "../../domain/ApiKey.ts"
import { requestObserver } from "../../observability/observeRequest.ts"
import { correlationIdFor } from "../CorrelationId.ts"
import type { ApiFailure } from "../errorTable.ts"
import { ServerShuttingDown } from "../requestErrors.ts"
import { ServerDrain } from "../ServerDrain.ts"
import { refuseUpgrade } from "./refuseUpgrade.ts"
import { SocketConnection } from "./SocketConnection.ts"
import type { SocketDoor } from "./socketSession.ts"
import { makeSocketTurns } from "./socketTurns.ts"

/** What the server calls with a request to upgrade: the socket is the route's from then on. */
export type UpgradeRoute = (req: IncomingMessage, socket: Duplex, head: Buffer) => void

/**
 * A door's WebSocket mode (docs/DESIGN.md §14): `GET` its path upgraded once
 * the key in the request's `Authorization` header is verified (a refused
 * upgrade is an HTTP answer in the door's envelope, so a client that falls
 * back to HTTP knows why); then each text message a turn, one at a time,
 * run as a request of its door is (`socketTurns.ts`). Messages are capped at
 * the body limit. Draining, the server refuses new upgrades, tells each
 * connection to go once its turn ended, and cuts what is left with the
 * requests' scope.
 */
export const makeSocketRoute = (door: SocketDoor) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const config = yield* AppConfig
    const drain = yield* ServerDrain
    const observer = yield* requestObserver
    const context = yield* Effect.context<never>()
    const turns = yield* makeSocketTurns
    const server = new WebSocketServer({ noServer: true, maxPayload: config.bodyLimitBytes, perMessageDeflate: false })
    const open = new Set<SocketConnection>()
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        for (const connection of open) connection.terminate()
      })
    )

    const accept = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      server.handleUpgrade(req, socket, head, (ws) => {
        const connection = new SocketConnection(ws, socket, door.session(), turns, {
          path: door.path,
          authorization: req.headers.authorization,
          apiKey: door.protocol.apiKeyHeader === true ? req.headers["x-api-key"] as string | undefined : undefined,
          idleMs: config.connections.keepAliveTimeoutMs
        })
        open.add(connection)
        const release = drain.connection(() => connection.goAway())
        ws.once("close", () => {
          open.delete(connection)
          release()
        })
      })

    // Made once: the upgrade's authentication, observed as a request (a 101, or the refusal's status).
    const upgrade = Effect.fnUntraced(function*(req: IncomingMessage, socket: Duplex, head: Buffer) {
      const correlationId = correlationIdFor(req.headers["x-correlation-id"] as string | undefined)
      const log = observer.start(correlationId, req.method, door.path)
      const protocol = door.protocol
      let status = 101
      const authenticated = Effect.suspend((): Effect.Effect<ApiKey, ApiFailure> => {
        if (drain.draining) return Effect.fail(new ServerShuttingDown())
        const apiKey = protocol.apiKeyHeader === true ? req.headers["x-api-key"] as string | undefined : undefined
        return keys.authenticate(req.headers.authorization, apiKey)
      }).pipe(
        Effect.tap((key) => Effect.sync(() => log.keyed(key))),
        Effect.matchCause({
          onSuccess: () => accept(req, socket, head),
          onFailure: (cause) => {
            const failure = Cause.findErrorOption(cause)
            const error = protocol.errorBody(
              failure._tag === "Some" ? failure.value : undefined,
              correlationId,
              undefined
            )
            status = error.status
            log.outcome = failure._tag === "Some" ? failure.value._tag : "unexpected"
            refuseUpgrade(socket, error, correlationId)
          }
        })
      )
      yield* observer.observe(log, authenticated, () => status)
    })

    return ((req, socket, head) => {
      // A socket error before the upgrade ends (a client that reset) is that connection's alone.
      socket.on("error", () => socket.destroy())
      Effect.runForkWith(context)(upgrade(req, socket, head))
    }) satisfies UpgradeRoute
  })
