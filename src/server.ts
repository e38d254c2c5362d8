import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { createServer } from "node:http"
import { Agent } from "./agent/Agent.ts"
import { Api } from "./api/Api.ts"
import { ApiKeys } from "./auth/ApiKeys.ts"
import { AppConfig } from "./config/AppConfig.ts"
import { AuthenticationLive } from "./http/authentication.ts"
import { CatalogHandlers } from "./http/catalogHandlers.ts"
import { ChatHandlers } from "./http/chatHandlers.ts"
import { Gateway } from "./http/gateway.ts"
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
  /** A listening Node HTTP server with its platform services (`NodeHttpServer.layer`). */
  readonly http: Layer.Layer<Layer.Success<ReturnType<typeof NodeHttpServer.layer>>, unknown>
  /** No "Listening on …" line (tests and the demo print their own). */
  readonly quiet?: boolean
}

/**
 * The whole gateway from its parts. `npm start` takes them from the
 * environment; tests and the demo pass a scripted provider, an ephemeral port
 * and their own tools. The services and the HTTP server stay in the output so
 * callers can read the bound address or create keys.
 */
export const makeGateway = <E1, E2>(parts: GatewayParts<E1, E2>) => {
  const services = Layer.mergeAll(ApiKeys.layer, ModelRegistry.layer, parts.tools, Agent.layer, Pruner.layer).pipe(
    Layer.provideMerge(parts.sandboxes ?? SandboxProvider.layer),
    Layer.provideMerge(parts.config),
    Layer.provide(parts.database)
  )
  return HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: parts.quiet === true }).pipe(
    // Resolved per request as well as when the routes are built.
    Layer.provide(AuthenticationLive),
    Layer.provideMerge(parts.http),
    Layer.provideMerge(services)
  )
}

// Node's default backlog (511) overflows under connection bursts (seen in `npm run bench`); the kernel caps it at somaxconn.
const LISTEN_BACKLOG = 4096

const listenFromConfig = Layer.unwrap(
  Effect.map(Effect.service(AppConfig), (config) =>
    NodeHttpServer.layer(createServer, { host: config.host, port: config.port, backlog: LISTEN_BACKLOG }))
).pipe(Layer.provide(AppConfig.layer))

/** `npm start` / `parley serve`: configured from the environment (DESIGN §4). */
export const runServer = Layer.launch(
  makeGateway({ config: AppConfig.layer, database: Database.layer, tools: ToolRegistry.layer, http: listenFromConfig })
)
