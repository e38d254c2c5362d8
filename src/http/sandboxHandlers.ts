import { ByteSize, Effect, Result, Schema } from "effect"
import { HttpIncomingMessage, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { CurrentKey } from "../api/Authentication.ts"
import { CreateSandboxRequest } from "../api/SandboxApi.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import { parseJsonBody } from "../domain/ChatRequest.ts"
import { BadRequest, Forbidden, NotFound, PayloadTooLarge, ServiceUnavailable } from "../domain/errors.ts"
import { describeIssues } from "../domain/requestIssues.ts"
import type { SandboxInfo } from "../sandbox/Sandbox.ts"
import { canUse, foreignSandbox } from "../sandbox/sandboxAccess.ts"
import { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import { errorResponse } from "./errorResponse.ts"

const BODY_LIMIT = 16 * 1024

const decodeCreate = Schema.decodeUnknownResult(CreateSandboxRequest)

// The body is optional ({} when empty) and tiny; anything else gets the spec's 400/413 body.
const readCreate = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const text = yield* request.text.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(BODY_LIMIT)),
      Effect.mapError(() =>
        new PayloadTooLarge({ message: `Request body exceeds the limit of ${BODY_LIMIT} bytes`, details: { limit: BODY_LIMIT } })
      )
    )
    const body = text.trim() === "" ? {} : yield* parseJsonBody(text)
    const decoded = decodeCreate(body)
    if (Result.isSuccess(decoded)) return decoded.success
    const issues = describeIssues(decoded.failure.issue).join("; ")
    return yield* new BadRequest({ message: `Invalid request: ${issues}`, details: { error: issues } })
  })

export const SandboxHandlers = HttpApiBuilder.group(
  Api,
  "sandboxes",
  Effect.fn(function*(handlers) {
    const sandboxes = yield* SandboxProvider

    const view = (sandbox: SandboxInfo) => ({
      id: sandbox.id,
      desktop: sandbox.desktop,
      network: sandbox.network,
      createdAt: sandbox.createdAt.toISOString(),
      owner: sandbox.ownerKeyId === null ? "account" as const : "key" as const,
      ...(sandbox.desktop ? { display: sandboxes.display } : {})
    })

    const ok = (data: unknown, status = 200) => HttpServerResponse.jsonUnsafe({ success: true, data }, { status })

    const find = (id: string, key: ApiKey) =>
      sandboxes.get(id).pipe(
        Effect.mapError(() => new NotFound({ message: `No sandbox ${id}. GET /api/v1/sandboxes lists yours.`, details: { sandboxId: id } })),
        Effect.filterOrFail((sandbox) => canUse(sandbox, key), () => foreignSandbox(id))
      )

    const create = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const key = yield* CurrentKey
        const input = yield* readCreate(request)
        const sandbox = yield* sandboxes.create({
          ownerKeyId: key.id,
          desktop: input.desktop ?? false,
          network: input.network ?? false
        }).pipe(Effect.mapError((error) => new ServiceUnavailable({ message: error.message, details: { error: error.message } })))
        return ok({ sandbox: view(sandbox) }, 201)
      })

    const remove = (id: string) =>
      Effect.gen(function*() {
        const key = yield* CurrentKey
        const sandbox = yield* find(id, key)
        if (sandbox.ownerKeyId === null) {
          return yield* new Forbidden({
            message: `Sandbox ${id} belongs to the operator; it is removed with \`parley sandbox rm ${id}\``,
            details: { sandboxId: id }
          })
        }
        // Removed meanwhile by someone else: the outcome the caller asked for.
        yield* Effect.ignore(sandboxes.destroy(id))
        return ok({ id, deleted: true })
      })

    return handlers
      .handleRaw("create", ({ request }) => create(request).pipe(Effect.catch(errorResponse)))
      .handleRaw("list", () =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          const all = yield* sandboxes.list
          return ok({ sandboxes: all.filter((sandbox) => canUse(sandbox, key)).map(view) })
        }))
      .handleRaw("get", ({ params }) =>
        Effect.flatMap(CurrentKey, (key) => find(params.id, key)).pipe(
          Effect.map((sandbox) => ok({ sandbox: view(sandbox) })),
          Effect.catch(errorResponse)
        ))
      .handleRaw("remove", ({ params }) => remove(params.id).pipe(Effect.catch(errorResponse)))
  })
)
