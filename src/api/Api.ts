import { HttpApi, OpenApi } from "effect/http-api"
import { AdminApi } from "./AdminApi.ts"
import { CatalogApi } from "./CatalogApi.ts"
import { ChatApi } from "./ChatApi.ts"
import { OpenAiApi } from "./OpenAiApi.ts"
import { openNestedObjects } from "./openNestedObjects.ts"
import { SandboxApi } from "./SandboxApi.ts"
import { SystemApi } from "./SystemApi.ts"

/** The whole contract, chat included: what /openapi.json and /docs declare. */
export class Api extends HttpApi.make("parley")
  .add(ChatApi)
  .add(CatalogApi)
  .add(SystemApi)
  .add(SandboxApi)
  .add(AdminApi)
  .add(OpenAiApi)
  .annotateMerge(
    OpenApi.annotations({
      title: "parley",
      version: "1.0.0",
      description: "A chat gateway to language models with a governed, server-side tool loop.",
      transform: openNestedObjects("ChatRequest", ["pruneOptions"])
    })
  )
{}

/**
 * The part of the contract the router serves with its handlers: all but chat,
 * which the gateway's server answers before routing (`http/hotRoute.ts`), and
 * the OpenAI doors, routed to a protocol's own route (`protocols/openai/`).
 */
export class RoutedApi extends HttpApi.make("parley")
  .add(CatalogApi)
  .add(SystemApi)
  .add(SandboxApi)
  .add(AdminApi)
{}
