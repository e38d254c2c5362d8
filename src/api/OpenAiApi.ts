import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { Count } from "../domain/Count.ts"
import { ApiKeyBearer } from "./Authentication.ts"
import { openAiErrorAt } from "./errorSchemas.ts"

export const OpenAiModel = Schema.Struct({
  id: Schema.String.annotate({ description: "parley's model id, `<provider>/<model>`." }),
  object: Schema.Literal("model"),
  created: Count.annotate({
    description:
      "Always 0: parley does not know when a provider made a model, and a fixed value is the same from every instance and after every restart."
  }),
  owned_by: Schema.String.annotate({ description: "The provider's id in parley's configuration." })
}).annotate({ identifier: "OpenAiModel" })

export const OpenAiModelList = Schema.Struct({
  object: Schema.Literal("list"),
  data: Schema.Array(OpenAiModel)
}).annotate({ identifier: "OpenAiModelList" })

const ApiKeyHeader = HttpApiSecurity.apiKey({ key: "x-api-key", in: "header" }).pipe(
  HttpApiSecurity.annotateMerge(OpenApi.annotations({
    description: "An API key sent as `x-api-key: <key>`, as Anthropic's clients send it."
  }))
)

/**
 * How the OpenAI doors take the key, for the contract: `Authorization: Bearer`
 * or `x-api-key`. The doors answer outside the router's handlers and check the
 * key themselves (protocols/openai/), so nothing implements this middleware.
 */
export class OpenAiAuthentication extends HttpApiMiddleware.Service<OpenAiAuthentication>()(
  "parley/api/OpenAiAuthentication",
  { security: { bearer: ApiKeyBearer, apiKey: ApiKeyHeader } }
) {}

const errors = [openAiErrorAt(401), openAiErrorAt(500), openAiErrorAt(503)]

/** OpenAI's wire format at base URL `/v1` (docs/DESIGN.md §14): the endpoints OpenAI's SDKs call. */
export class OpenAiApi extends HttpApiGroup.make("openai")
  .add(
    HttpApiEndpoint.get("listModels", "/models", { success: OpenAiModelList, error: errors }).annotateMerge(
      OpenApi.annotations({
        description: "The models the key may use, in OpenAI's list form (`models.list()` of OpenAI's SDKs)."
      })
    ),
    HttpApiEndpoint.get("retrieveModel", "/models/:model", {
      params: {
        model: Schema.String.annotate({
          description:
            "parley's model id, `<provider>/<model>`: its `/` sent as is or percent-encoded (`%2F`, as OpenAI's SDKs send it)."
        })
      },
      success: OpenAiModel,
      error: [...errors, openAiErrorAt(404)]
    }).annotateMerge(OpenApi.annotations({
      description:
        "One model the key may use (`models.retrieve()`); 404 for a model that does not exist or that the key may not use, alike."
    }))
  )
  .middleware(OpenAiAuthentication)
  .prefix("/v1")
  .annotateMerge(OpenApi.annotations({ description: "OpenAI's wire format: give OpenAI's SDKs the base URL /v1." }))
{}
