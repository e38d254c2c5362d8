import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiScalar, OpenApi } from "effect/http-api"
import { RoutedApi } from "../api/Api.ts"
import { contractRoutes } from "../api/contractRoutes.ts"
import { AdminAuthenticationLive } from "../http/admin/adminAuthentication.ts"
import { AdminHandlers } from "../http/admin/adminHandlers.ts"
import { AuthenticationLive } from "../http/authentication.ts"
import { CatalogHandlers } from "../http/catalogHandlers.ts"
import { consolePaths, ConsoleRoutes, FAVICON_PATH } from "../http/console/consoleRoutes.ts"
import { gatewayMiddleware } from "../http/gateway.ts"
import { McpEndpoint } from "../http/mcpEndpoint.ts"
import { MetricsRoute } from "../http/metricsRoute.ts"
import { SandboxHandlers } from "../http/sandboxHandlers.ts"
import { SystemHandlers } from "../http/systemHandlers.ts"
import { OpenAiModelsRoute } from "../protocols/openai/models.ts"
import { Contract } from "./contract.ts"
import { doorList } from "./doors.ts"
import { keptReplaysLayer } from "./keptReplays.ts"

// Generated from the whole contract: chat is declared here although the server answers it before routing.
const OpenApiDocument = HttpRouter.use((router) =>
  Effect.suspend(() => router.add("GET", "/openapi.json", HttpServerResponse.jsonUnsafe(OpenApi.fromApi(Contract))))
)

/**
 * The docs page: Scalar, inlined in the page (no CDN), with everything that
 * would reach another host turned off: its default fonts (fonts.scalar.com),
 * the developer toolbar whose "Share" uploads the API description to
 * scalar.com, the button that opens Scalar's hosted client, and telemetry.
 * Its icon is the console's, served by parley (else the browser asks for a
 * /favicon.ico of its own accord). The names are those of
 * @scalar/api-reference 1.43 (bundled by effect); test/app/docsPage.test.ts
 * checks in Chromium that no request leaves.
 */
const docsPage: HttpApiScalar.ScalarConfig & {
  readonly showDeveloperTools: "never"
  readonly hideClientButton: true
  readonly telemetry: false
} = {
  withDefaultFonts: false,
  authentication: { preferredSecurityScheme: "bearer" },
  showDeveloperTools: "never",
  hideClientButton: true,
  telemetry: false,
  favicon: FAVICON_PATH,
  customCss: ":root { --scalar-font: system-ui, sans-serif; --scalar-font-code: ui-monospace, monospace; }"
}

/**
 * Every routed endpoint (all but the doors' hot routes), the OpenAI doors' model
 * list, each door's side routes (stored responses, count_tokens), /openapi.json, the docs page, /mcp, the
 * console and the gateway middleware.
 */
export const Routes = Layer.mergeAll(
  HttpApiBuilder.layer(RoutedApi).pipe(
    Layer.provide([CatalogHandlers, SystemHandlers, SandboxHandlers, AdminHandlers]),
    Layer.provide([AuthenticationLive, AdminAuthenticationLive, keptReplaysLayer])
  ),
  OpenApiDocument,
  OpenAiModelsRoute,
  // Each door's side routes, from the door table.
  ...doorList.flatMap(([, door]) => door.routes === undefined ? [] : [door.routes]),
  MetricsRoute,
  McpEndpoint,
  HttpApiScalar.layer(Contract, { path: "/docs", scalar: docsPage }),
  ConsoleRoutes,
  // Every route served, so that a known path asked with another method answers 405 (docs/DESIGN.md §3.22).
  gatewayMiddleware([
    ...contractRoutes(Contract),
    { method: "GET", path: "/openapi.json" },
    { method: "GET", path: "/docs" },
    { method: "GET", path: "/metrics" },
    { method: "POST", path: "/mcp" },
    ...consolePaths.map((path) => ({ method: "GET", path }))
  ])
)
