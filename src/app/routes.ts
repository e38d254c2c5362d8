import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiScalar, OpenApi } from "effect/http-api"
import { Api, RoutedApi } from "../api/Api.ts"
import { AuthenticationLive } from "../http/authentication.ts"
import { CatalogHandlers } from "../http/catalogHandlers.ts"
import { Gateway } from "../http/gateway.ts"
import { McpEndpoint } from "../http/mcpEndpoint.ts"
import { SandboxHandlers } from "../http/sandboxHandlers.ts"
import { SystemHandlers } from "../http/systemHandlers.ts"

// Generated from the whole contract: chat is declared here although the server answers it before routing.
const OpenApiDocument = HttpRouter.use((router) =>
  Effect.suspend(() => router.add("GET", "/openapi.json", HttpServerResponse.jsonUnsafe(OpenApi.fromApi(Api))))
)

/** Every routed endpoint (all but POST /api/v1/chat), /openapi.json, the docs page, /mcp and the gateway middleware. */
export const Routes = Layer.mergeAll(
  HttpApiBuilder.layer(RoutedApi).pipe(
    Layer.provide([CatalogHandlers, SystemHandlers, SandboxHandlers]),
    Layer.provide(AuthenticationLive)
  ),
  OpenApiDocument,
  HttpApiScalar.layer(Api, { path: "/docs" }),
  McpEndpoint,
  Gateway
)
