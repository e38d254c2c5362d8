import { HttpApi, OpenApi } from "effect/http-api"
import { CatalogApi } from "./CatalogApi.ts"
import { ChatApi } from "./ChatApi.ts"
import { SandboxApi } from "./SandboxApi.ts"
import { SystemApi } from "./SystemApi.ts"

export class Api extends HttpApi.make("parley")
  .add(ChatApi)
  .add(CatalogApi)
  .add(SystemApi)
  .add(SandboxApi)
  .annotateMerge(
    OpenApi.annotations({
      title: "parley",
      version: "1.0.0",
      description: "A chat gateway to language models with a governed, server-side tool loop."
    })
  )
{}
