import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ConfigSchemaResponse, ModelsResponse, PromptTypesResponse, ToolsResponse } from "../domain/Catalog.ts"
import { Authentication } from "./Authentication.ts"
import { errorAt } from "./errorSchemas.ts"

const errors = [errorAt(401), errorAt(500)]

export class CatalogApi extends HttpApiGroup.make("catalog")
  .add(
    HttpApiEndpoint.get("models", "/models", { success: ModelsResponse, error: errors }).annotateMerge(
      OpenApi.annotations({ description: "Models the key may use. Cached for 1 hour." })
    ),
    HttpApiEndpoint.get("tools", "/tools", { success: ToolsResponse, error: errors }).annotateMerge(
      OpenApi.annotations({
        description: "Tools the key may use, with their promptType memberships. Cached for 1 hour."
      })
    ),
    HttpApiEndpoint.get("promptTypes", "/prompt-types", { success: PromptTypesResponse, error: errors }),
    HttpApiEndpoint.get("configSchema", "/config-schema", { success: ConfigSchemaResponse, error: errors })
      .annotateMerge(
        OpenApi.annotations({ description: "JSON Schemas of the context, sandboxId and toolContext request fields." })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}
