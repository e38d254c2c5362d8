import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Count } from "../domain/Count.ts"
import { Authentication } from "./Authentication.ts"
import { errorAt } from "./errorSchemas.ts"

export const CreateSandboxRequest = Schema.Struct({
  desktop: Schema.optional(Schema.Boolean).annotate({
    description: "Give it a desktop (an Xvfb display) for the computer tool. Default false."
  }),
  network: Schema.optional(Schema.Boolean).annotate({
    description: "Let its commands reach the network. Default false: no network at all, not even the gateway."
  })
}).annotate({ identifier: "CreateSandboxRequest" })

export const SandboxView = Schema.Struct({
  id: Schema.String,
  desktop: Schema.Boolean,
  network: Schema.Boolean,
  createdAt: Schema.String,
  owner: Schema.Literals(["key", "account"]).annotate({
    description: "key: created with this API key; account: created by the operator for every key."
  }),
  display: Schema.optionalKey(Schema.Struct({ width: Count, height: Count })),
  backend: Schema.Literals(["local", "docker"]).annotate({
    description:
      "Where it lives: local, a jail on the instance that made it; docker, a container on the engine every instance shares."
  }),
  instance: Schema.NullOr(Schema.String).annotate({
    description:
      "local: the gateway instance holding its workspace (PARLEY_INSTANCE_ID); requests for it elsewhere get 409 (send X-Parley-Sandbox so a balancer can route them). null for docker: every instance reaches it."
  }),
  usedAt: Schema.String.annotate({
    description: "When a request last used it. A sandbox unused for PARLEY_SANDBOX_IDLE (default 24h) is deleted."
  })
}).annotate({ identifier: "Sandbox" })

const SandboxResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({ sandbox: SandboxView })
}).annotate({ identifier: "SandboxResponse" })

const SandboxesResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({ sandboxes: Schema.Array(SandboxView) })
}).annotate({ identifier: "SandboxesResponse" })

const DeletedResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) })
}).annotate({ identifier: "SandboxDeletedResponse" })

const params = { id: Schema.String }

export class SandboxApi extends HttpApiGroup.make("sandboxes")
  .add(
    HttpApiEndpoint.post("create", "/sandboxes", {
      payload: CreateSandboxRequest,
      success: SandboxResponse.pipe(HttpApiSchema.status(201)),
      error: [errorAt(400), errorAt(401), errorAt(413), errorAt(500), errorAt(503)]
    }).annotateMerge(OpenApi.annotations({
      description:
        "Creates a sandbox owned by the calling key: an isolated workspace for the bash and computer tools. Pass its id as sandboxId."
    })),
    HttpApiEndpoint.get("list", "/sandboxes", {
      success: SandboxesResponse,
      error: [errorAt(401), errorAt(500)]
    }).annotateMerge(
      OpenApi.annotations({
        description: "Sandboxes the calling key may use: its own and the operator's, on every instance."
      })
    ),
    HttpApiEndpoint.get("get", "/sandboxes/:id", {
      params,
      success: SandboxResponse,
      error: [errorAt(401), errorAt(403), errorAt(404), errorAt(409), errorAt(500)]
    }),
    HttpApiEndpoint.delete("remove", "/sandboxes/:id", {
      params,
      success: DeletedResponse,
      error: [errorAt(401), errorAt(403), errorAt(404), errorAt(409), errorAt(500)]
    }).annotateMerge(OpenApi.annotations({
      description: "Deletes one of the calling key's sandboxes with its workspace and stops its desktop."
    }))
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}
