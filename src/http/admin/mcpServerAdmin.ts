import { Effect, Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { Principal } from "../../api/AdminAuthentication.ts"
import { CreateMcpServer, stdioFields, UpdateMcpServer } from "../../api/mcpServerSchemas.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import type { McpServers } from "../../mcp/McpServers.ts"
import { requireOperator } from "./access.ts"
import { decodeAdminBody, readAdminBody } from "./adminBody.ts"
import { ok } from "./adminViews.ts"

const AnyObject = Schema.Record(Schema.String, Schema.Unknown)

/** A body decoded with `schema`; a stdio server's fields are refused by name, as the API takes HTTP servers only. */
const readServerBody = <S extends Schema.Decoder<unknown>>(request: HttpServerRequest.HttpServerRequest, schema: S) =>
  Effect.gen(function*() {
    const body = yield* readAdminBody(request, AnyObject)
    const stdio = stdioFields.filter((field) => field in body)
    if (stdio.length > 0) {
      return yield* new InvalidRequest({
        issues: stdio.map((field) =>
          `"${field}": stdio servers are registered in the config file only; this API takes HTTP servers (url, headers)`
        )
      })
    }
    return yield* decodeAdminBody(schema, body)
  })

/** /admin/v1/mcp-servers: the operator's alone, as accounts are (docs/DESIGN.md §9). */
export const makeMcpServerAdmin = (servers: McpServers["Service"]) => {
  const operator = <A, E, R>(principal: Principal, effect: Effect.Effect<A, E, R>) =>
    Effect.andThen(requireOperator(principal), effect)
  return {
    list: (principal: Principal) => operator(principal, Effect.map(servers.list, (list) => ok({ servers: list }))),

    create: (principal: Principal, request: HttpServerRequest.HttpServerRequest) =>
      operator(
        principal,
        Effect.gen(function*() {
          const input = yield* readServerBody(request, CreateMcpServer)
          return ok({ server: yield* servers.create(input) }, 201)
        })
      ),

    get: (principal: Principal, id: string) =>
      operator(principal, Effect.map(servers.get(id), (server) => ok({ server }))),

    update: (principal: Principal, id: string, request: HttpServerRequest.HttpServerRequest) =>
      operator(
        principal,
        Effect.gen(function*() {
          const changes = yield* readServerBody(request, UpdateMcpServer)
          return ok({ server: yield* servers.update(id, changes) })
        })
      ),

    remove: (principal: Principal, id: string) =>
      operator(principal, Effect.as(servers.remove(id), ok({ id, deleted: true }))),

    refresh: (principal: Principal, id: string) =>
      operator(principal, Effect.map(servers.refresh(id), (server) => ok({ server })))
  }
}
