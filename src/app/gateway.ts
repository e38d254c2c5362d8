import { Layer } from "effect"
import { serveGateway } from "./GatewayServer.ts"
import { type GatewayParts, gatewayServices } from "./services.ts"

/**
 * The whole gateway from its parts: the services and the server in front of
 * them. The services and the `HttpServer` stay in the output so callers can
 * read the bound address or create keys.
 */
export const makeGateway = <E>(parts: GatewayParts<E>) =>
  serveGateway({ quiet: parts.quiet }).pipe(Layer.provideMerge(gatewayServices(parts)))
