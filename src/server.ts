import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { createServer } from "node:http"
import { Agent } from "./agent/Agent.ts"
import { Api } from "./api/Api.ts"
import { ApiKeys } from "./auth/ApiKeys.ts"
import { AppConfig } from "./config/AppConfig.ts"
import { AuthenticationLive } from "./http/authentication.ts"
import { CatalogHandlers } from "./http/catalogHandlers.ts"
import { ChatHandlers } from "./http/chatHandlers.ts"
import { Gateway } from "./http/gateway.ts"
import { SystemHandlers } from "./http/systemHandlers.ts"
import { ModelRegistry } from "./models/ModelRegistry.ts"
import { Pruner } from "./prune/Pruner.ts"
import * as Database from "./store/Database.ts"
import { ToolRegistry } from "./tools/ToolRegistry.ts"

/** Every route: the HttpApi (with /openapi.json), the docs page and the gateway middleware. */
export const Routes = Layer.mergeAll(
  HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide([ChatHandlers, CatalogHandlers, SystemHandlers, AuthenticationLive])
  ),
  HttpApiScalar.layer(Api, { path: "/docs" }),
  Gateway
)

/** The services the routes run on, from the environment, the config file and the database. */
export const Services = Layer.mergeAll(ApiKeys.layer, ModelRegistry.layer, ToolRegistry.layer, Agent.layer, Pruner.layer).pipe(
  Layer.provideMerge(AppConfig.layer),
  Layer.provide(Database.layer)
)

const NodeServer = Layer.unwrap(
  Effect.map(Effect.service(AppConfig), (config) => NodeHttpServer.layer(createServer, { host: config.host, port: config.port }))
)

export const ServerLive = HttpRouter.serve(Routes, { disableLogger: true }).pipe(
  Layer.provide(NodeServer),
  Layer.provide(Services)
)

/** `parley serve` / `npm start`. */
export const runServer = Layer.launch(ServerLive)
