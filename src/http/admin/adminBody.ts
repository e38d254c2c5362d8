import { ByteSize, Effect, Result, Schema } from "effect"
import { HttpIncomingMessage, type HttpServerRequest } from "effect/http"
import { parseJsonBody } from "../../domain/ChatRequest.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import { describeIssues } from "../../domain/requestIssues.ts"
import { BodyTooLarge } from "../requestErrors.ts"

// Admin bodies are a few allow-list entries; nothing legitimate comes near this.
const BODY_LIMIT = 64 * 1024

/**
 * An admin request's JSON body decoded with `schema`, in the spec's error
 * body when it is not: 413 over the limit, 400 for bad JSON, a wrong field,
 * or an unknown one (named, as the chat body's are, docs/DESIGN.md §3.16).
 * An empty body reads as `{}`.
 */
export const readAdminBody = <S extends Schema.Decoder<unknown>>(
  request: HttpServerRequest.HttpServerRequest,
  schema: S
) =>
  Effect.gen(function*() {
    const text = yield* request.text.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(BODY_LIMIT)),
      Effect.mapError(() => new BodyTooLarge({ limit: BODY_LIMIT }))
    )
    return yield* decodeAdminBody(schema, text.trim() === "" ? {} : yield* parseJsonBody(text))
  })

/** A parsed body decoded with `schema`; unknown fields refused, every issue named (400). */
export const decodeAdminBody = <S extends Schema.Decoder<unknown>>(schema: S, body: unknown) => {
  const decoded = Schema.decodeUnknownResult(schema, { onExcessProperty: "error", errors: "all" })(body)
  return Result.isSuccess(decoded)
    ? Effect.succeed(decoded.success as S["Type"])
    : Effect.fail(new InvalidRequest({ issues: describeIssues(decoded.failure.issue) }))
}

/** A query decoded with `schema` (its values are text), in the spec's error body when it is not: 400 naming the fields. */
export const decodeAdminQuery = <S extends Schema.Decoder<unknown>>(schema: S, query: unknown) => {
  const decoded = Schema.decodeUnknownResult(schema, { errors: "all" })(query)
  return Result.isSuccess(decoded)
    ? Effect.succeed(decoded.success as S["Type"])
    : Effect.fail(new InvalidRequest({ issues: describeIssues(decoded.failure.issue) }))
}
