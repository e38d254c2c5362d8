import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { Agent } from "./agent/Agent.ts"
import { Api } from "./api/Api.ts"
import { ApiKeys } from "./auth/ApiKeys.ts"
import { AppConfig } from "./config/AppConfig.ts"
import { AuthenticationLive } from "./http/authentication.ts"
import { CatalogHandlers } from "./http/catalogHandlers.ts"
import { ChatHandlers } from "./http/chatHandlers.ts"
import { makeChatRoute } from "./http/chatRoute.ts"
import { Gateway } from "./http/gateway.ts"
import { GatewayServer } from "./http/GatewayServer.ts"
import { SandboxHandlers } from "./http/sandboxHandlers.ts"
import { SystemHandlers } from "./http/systemHandlers.ts"
import { ModelRegistry } from "./models/ModelRegistry.ts"
import { Pruner } from "./prune/Pruner.ts"
import { SandboxProvider } from "./sandbox/SandboxProvider.ts"
import * as Database from "./store/Database.ts"
import { ToolRegistry } from "./tools/ToolRegistry.ts"

/** Every route: the HttpApi (with /openapi.json), the docs page and the gateway middleware. */
export const Routes = Layer.mergeAll(
  HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide([ChatHandlers, CatalogHandlers, SystemHandlers, SandboxHandlers])
  ),
  HttpApiScalar.layer(Api, { path: "/docs" }),
  Gateway
)

export interface GatewayParts<E1, E2> {
  readonly config: Layer.Layer<AppConfig, E1>
  readonly database: Layer.Layer<SqlClient.SqlClient, E2>
  readonly tools: Layer.Layer<ToolRegistry>
  /** Default: the embedded bubblewrap backend configured from the environment (`PARLEY_SANDBOX_*`). */
  readonly sandboxes?: Layer.Layer<SandboxProvider, unknown>
  /** Where to listen (port 0: any free port; read the bound one from `HttpServer`). */
  readonly listen: NodeHttpServer.Options
  /** No "Listening on …" line (tests and the demo print their own). */
  readonly quiet?: boolean
}

// Node's default backlog (511) overflows under connection bursts (seen in `npm run bench`); the kernel caps it at somaxconn.
const LISTEN_BACKLOG = 4096

/**
 * The whole gateway from its parts. `npm start` takes them from the
 * environment; tests and the demo pass a scripted provider, an ephemeral port
 * and their own tools. The services and the HTTP server stay in the output so
 * callers can read the bound address or create keys.
 */
export const makeGateway = <E1, E2>(parts: GatewayParts<E1, E2>) =>
  Layer.unwrap(Effect.sync(() => {
    const server = new GatewayServer()
    const chatRoute = Layer.effectDiscard(Effect.gen(function*() {
      server.chatRoute = yield* makeChatRoute
      yield* Effect.addFinalizer(() => Effect.sync(() => server.chatRoute = undefined))
    }))
    return serveRoutes(parts).pipe(
      Layer.merge(chatRoute),
      Layer.provideMerge(NodeHttpServer.layer(() => server, { backlog: LISTEN_BACKLOG, ...parts.listen })),
      Layer.provideMerge(gatewayServices(parts))
    )
  }))

/** The services every route uses, from the gateway's parts. */
export const gatewayServices = <E1, E2>(parts: GatewayParts<E1, E2>) =>
  Layer.mergeAll(ApiKeys.layer, ModelRegistry.layer, parts.tools, Agent.layer, Pruner.layer).pipe(
    Layer.provideMerge(parts.sandboxes ?? SandboxProvider.layer),
    Layer.provideMerge(parts.config),
    Layer.provide(parts.database)
  )

/** The routes served by whatever HTTP server is provided; without GatewayServer, chat goes through the router. */
export const serveRoutes = (options: { readonly quiet?: boolean }) =>
  HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: options.quiet === true }).pipe(
    // Resolved per request as well as when the routes are built.
    Layer.provide(AuthenticationLive)
  )

/** `npm start` / `parley serve`: configured from the environment (DESIGN §4). */
export const runServer = Layer.launch(
  Layer.unwrap(Effect.map(Effect.service(AppConfig), (config) =>
    makeGateway({
      config: AppConfig.layer,
      database: Database.layer.pipe(Layer.provide(AppConfig.layer)),
      tools: ToolRegistry.layer,
      listen: { host: config.host, port: config.port }
    }))).pipe(Layer.provide(AppConfig.layer))
)
