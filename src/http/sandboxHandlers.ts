import { ByteSize, Effect, Result, Schema } from "effect"
import { HttpIncomingMessage, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { CurrentKey } from "../api/Authentication.ts"
import { CreateSandboxRequest } from "../api/SandboxApi.ts"
import { parseJsonBody } from "../domain/ChatRequest.ts"
import { InvalidRequest } from "../domain/requestErrors.ts"
import { describeIssues } from "../domain/requestIssues.ts"
import type { SandboxInfo } from "../sandbox/Sandbox.ts"
import { canUse, SandboxOwnedByOperator, usableSandbox } from "../sandbox/sandboxAccess.ts"
import { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import { errorResponse } from "./errorResponse.ts"
import { BodyTooLarge } from "./requestErrors.ts"

const BODY_LIMIT = 16 * 1024

const decodeCreate = Schema.decodeUnknownResult(CreateSandboxRequest)

// The body is optional ({} when empty) and tiny; anything else gets the spec's 400/413 body.
const readCreate = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const text = yield* request.text.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(BODY_LIMIT)),
      Effect.mapError(() => new BodyTooLarge({ limit: BODY_LIMIT }))
    )
    const body = text.trim() === "" ? {} : yield* parseJsonBody(text)
    const decoded = decodeCreate(body)
    if (Result.isSuccess(decoded)) return decoded.success
    return yield* new InvalidRequest({ issues: describeIssues(decoded.failure.issue) })
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
      ...(sandbox.desktop ? { display: sandboxes.display } : {}),
      backend: sandbox.backend,
      instance: sandbox.instance,
      usedAt: sandbox.usedAt.toISOString()
    })

    const ok = (data: unknown, status = 200) => HttpServerResponse.jsonUnsafe({ success: true, data }, { status })

    const create = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const key = yield* CurrentKey
        const input = yield* readCreate(request)
        const sandbox = yield* sandboxes.create({
          ownerKeyId: key.id,
          ownerAccountId: key.accountId,
          desktop: input.desktop ?? false,
          network: input.network ?? false
        })
        return ok({ sandbox: view(sandbox) }, 201)
      })

    const remove = (id: string) =>
      Effect.gen(function*() {
        const key = yield* CurrentKey
        const sandbox = yield* usableSandbox(sandboxes, id, key)
        if (sandbox.ownerKeyId === null) return yield* new SandboxOwnedByOperator({ sandboxId: id })
        // Removed meanwhile by someone else: the outcome the caller asked for.
        yield* Effect.catchTag(sandboxes.destroy(id), "SandboxNotFound", () => Effect.void)
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
      .handleRaw(
        "get",
        ({ params }) =>
          Effect.flatMap(CurrentKey, (key) => usableSandbox(sandboxes, params.id, key)).pipe(
            Effect.map((sandbox) => ok({ sandbox: view(sandbox) })),
            Effect.catch(errorResponse)
          )
      )
      .handleRaw("remove", ({ params }) => remove(params.id).pipe(Effect.catch(errorResponse)))
  })
)
