import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"

/** Why the server should get no traffic now (docs/DESIGN.md §8); a balancer reads only the status. */
export const NotReady = Schema.Struct({
  reasons: Schema.Array(Schema.String).annotate({
    description: "One line each: draining, store, migrations, providers."
  })
}).annotate({ identifier: "NotReady" })

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  HttpApiEndpoint.get("health", "/health", {
    success: Schema.Struct({ status: Schema.Literal("ok") })
  }).annotate(OpenApi.Description, "The process answers. No key."),
  HttpApiEndpoint.get("ready", "/ready", {
    success: Schema.Struct({ status: Schema.Literal("ready") }),
    error: NotReady.pipe(HttpApiSchema.status(503))
  }).annotate(
    OpenApi.Description,
    "Ready for traffic: the store answers with every migration applied, a model provider is configured, and the server is not shutting down. Otherwise 503 with the reasons. No key."
  )
) {}
