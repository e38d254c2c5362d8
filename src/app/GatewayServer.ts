import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Duration, Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { AppConfig } from "../config/AppConfig.ts"
import { isChatRequest, makeChatRoute } from "../http/chatRoute.ts"
import { capConnections } from "./connectionCap.ts"
import { Routes } from "./routes.ts"

// Node's default backlog (511) overflows under connection bursts (seen in `npm run bench`); the kernel caps it at somaxconn.
const LISTEN_BACKLOG = 4096

// Node's own limit on receiving a whole request (headers and body); it may not be shorter than the headers timeout.
const REQUEST_TIMEOUT_MS = 300_000

// Requests in flight when the server stops get this long to finish before they are interrupted.
const SHUTDOWN_GRACE = Duration.seconds(20)

const stopListening = (server: Server) =>
  Effect.callback<void>((resume) => {
    server.close(() => resume(Effect.void))
  })

/**
 * The gateway's one Node server, listening where the configuration says.
 * Every request is dispatched on its method and path before anything else
 * reads it: POST /api/v1/chat to the chat route (`http/chatRoute.ts`), the
 * hot path, which answers on Node's own request and response; everything
 * else to the Effect router (`Routes`). Both check the API key first.
 * Connections are capped below the open-file limit, and one that has not
 * sent its request head within the headers timeout is closed (a flood of
 * idle connections cannot starve the others).
 */
export const serveGateway = (options: { readonly quiet?: boolean | undefined }) =>
  Layer.effect(
    HttpServer.HttpServer,
    Effect.gen(function*() {
      const config = yield* AppConfig
      // Sequential, so the requests stop (below) before the server is closed for good.
      const scope = yield* Scope.fork(yield* Effect.scope, "sequential")
      const requests = yield* Scope.fork(scope, "parallel")
      const chat = yield* makeChatRoute.pipe(Scope.provide(requests))
      const router = yield* HttpRouter.toHttpEffect(Routes).pipe(Scope.provide(scope))
      const routed = yield* NodeHttpServer.makeHandler(router, { scope: requests })

      const { maxConnections, headersTimeoutMs } = config.connections
      const server = createServer({
        headersTimeout: headersTimeoutMs,
        requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeoutMs),
        // Node enforces those timeouts on this beat (30 s by default, longer than the headers timeout itself).
        connectionsCheckingInterval: Math.min(1_000, Math.max(100, headersTimeoutMs / 2))
      })
      const spoke = maxConnections === undefined ? undefined : capConnections(server, maxConnections)
      const dispatch = (req: IncomingMessage, res: ServerResponse) => {
        spoke?.(req.socket)
        return isChatRequest(req.method, req.url) ? chat(req, res) : routed(req, res)
      }
      server.on("request", dispatch)
      // Expect: 100-continue. The chat route says "continue" once the key is
      // verified; a routed request is told at once, as Node would by itself.
      server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
        if (!isChatRequest(req.method, req.url)) res.writeContinue()
        dispatch(req, res)
      })
      const httpServer = yield* NodeHttpServer.make(() => server, {
        backlog: LISTEN_BACKLOG,
        host: config.host,
        port: config.port
      }).pipe(Scope.provide(scope))
      yield* Scope.addFinalizer(
        scope,
        stopListening(server).pipe(
          Effect.timeoutOrElse({ duration: SHUTDOWN_GRACE, orElse: () => Effect.void }),
          Effect.andThen(Scope.close(requests, Exit.void))
        )
      )
      if (options.quiet !== true) yield* Effect.log(`Listening on ${HttpServer.formatAddress(httpServer.address)}`)
      return httpServer
    })
  ).pipe(Layer.provide(NodeHttpServer.layerHttpServices))
