import { Effect, Layer } from "effect"
import packageJson from "../../package.json" with { type: "json" }
import { AppConfig } from "../config/AppConfig.ts"
import { observabilityLayer } from "../observability/observabilityLayer.ts"
import { serveGateway } from "./GatewayServer.ts"
import { type GatewayParts, gatewayServices } from "./services.ts"

/**
 * The whole gateway from its parts: the services and the server in front of
 * them. The services and the `HttpServer` stay in the output so callers can
 * read the bound address or create keys.
 */
export const makeGateway = <E>(parts: GatewayParts<E>) =>
  serveGateway({ quiet: parts.quiet }).pipe(
    Layer.provideMerge(gatewayServices(parts)),
    Layer.provideMerge(observability(parts))
  )

// Logs, metrics and traces as configured (docs/DESIGN.md §8), under everything else so all of it reports through them.
const observability = <E>(parts: GatewayParts<E>) =>
  Layer.unwrap(Effect.map(Effect.service(AppConfig), (config) =>
    observabilityLayer(config.observability, {
      quiet: parts.quiet === true,
      version: packageJson.version,
      taps: parts.observe
    }))).pipe(Layer.provide(parts.config))
