import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { AppConfig } from "../config/AppConfig.ts"
import { makeCors } from "../http/cors.ts"
import { Drain, ServerDrain } from "../http/ServerDrain.ts"
import { capConnections } from "./connectionCap.ts"
import { drainServer } from "./drainServer.ts"
import { hotRouteOf, makeHotRoutes, upgradeRouteOf } from "./hotRoutes.ts"
import { Routes } from "./routes.ts"

// Node's default backlog (511) overflows under connection bursts (seen in `npm run bench`); the kernel caps it at somaxconn.
const LISTEN_BACKLOG = 4096

// Node's own limit on receiving a whole request (headers and body); it may not be shorter than the headers timeout.
const REQUEST_TIMEOUT_MS = 300_000

/**
 * The gateway's one Node server, listening where the configuration says.
 * Every request is dispatched on its method and path before anything else
 * reads it: each protocol's chat route (`hotRoutes.ts`, POST /api/v1/chat
 * first), the hot path, which answers on Node's own request and response;
 * everything else to the Effect router (`Routes`). Both check the API key first.
 * Connections are capped below the open-file limit, and one that has not
 * sent its request head within the headers timeout is closed (a flood of
 * idle connections cannot starve the others); one idle between requests stays
 * open for the keep-alive timeout, longer than a proxy in front keeps it. CORS, when configured, is
 * decided before either (docs/DESIGN.md §3.19). Stopping drains the
 * requests first (`drainServer`, docs/DESIGN.md §8).
 */
export const serveGateway = (options: { readonly quiet?: boolean | undefined }) =>
  Layer.effect(
    HttpServer.HttpServer,
    Effect.gen(function*() {
      const config = yield* AppConfig
      // Sequential, so the requests stop (below) before the server is closed for good.
      const scope = yield* Scope.fork(yield* Effect.scope, "sequential")
      const requests = yield* Scope.fork(scope, "parallel")
      const drain = new Drain()
      const hot = yield* makeHotRoutes.pipe(
        Scope.provide(requests),
        Effect.provideService(ServerDrain, drain)
      )
      const router = yield* HttpRouter.toHttpEffect(Routes).pipe(
        Scope.provide(scope),
        Effect.provideService(ServerDrain, drain)
      )
      const routed = yield* NodeHttpServer.makeHandler(router, { scope: requests })

      const { maxConnections, headersTimeoutMs, keepAliveTimeoutMs } = config.connections
      const server = createServer({
        headersTimeout: headersTimeoutMs,
        // Node says `Keep-Alive: timeout=<s>` and closes the idle connection a second (keepAliveTimeoutBuffer) after.
        keepAliveTimeout: keepAliveTimeoutMs,
        requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeoutMs),
        // Node enforces those timeouts on this beat (30 s by default, longer than the headers timeout itself).
        connectionsCheckingInterval: Math.min(1_000, Math.max(100, headersTimeoutMs / 2)),
        // Only a WebSocket to a door's path is an upgrade; any other (curl's `--http2` asks h2c) is a request.
        shouldUpgradeCallback: (req) => upgradeRouteOf(hot, req.method, req.url, req.headers.upgrade) !== undefined
      })
      const spoke = maxConnections === undefined ? undefined : capConnections(server, maxConnections)
      const cors = makeCors(config.operations.corsOrigins)
      const dispatch = (req: IncomingMessage, res: ServerResponse) => {
        spoke?.(res)
        if (cors?.(req, res) === true) return
        // A connection that brings a request while the server drains is closed after its answer.
        if (drain.draining) res.shouldKeepAlive = false
        const route = hotRouteOf(hot, req.method, req.url)
        if (route !== undefined) return route(req, res)
        drain.track(res)
        routed(req, res)
      }
      server.on("request", dispatch)
      // A door's WebSocket mode (docs/DESIGN.md §14), where `shouldUpgradeCallback` sent its upgrades.
      server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        const route = upgradeRouteOf(hot, req.method, req.url, req.headers.upgrade)
        if (route === undefined) socket.destroy()
        else route(req, socket, head)
      })
      // Expect: 100-continue. A hot route says "continue" once the key is
      // verified; a routed request is told at once, as Node would by itself.
      server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
        if (hotRouteOf(hot, req.method, req.url) === undefined) res.writeContinue()
        dispatch(req, res)
      })
      const httpServer = yield* NodeHttpServer.make(() => server, {
        backlog: LISTEN_BACKLOG,
        host: config.host,
        port: config.port
      }).pipe(Scope.provide(scope))
      yield* Scope.addFinalizer(scope, drainServer(server, drain, requests, config.operations.shutdownGraceMs))
      if (options.quiet !== true) yield* Effect.log(`Listening on ${HttpServer.formatAddress(httpServer.address)}`)
      return httpServer
    })
  ).pipe(Layer.provide(NodeHttpServer.layerHttpServices))
