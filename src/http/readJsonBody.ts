import { ByteSize, Effect } from "effect"
import { HttpIncomingMessage, type HttpServerRequest } from "effect/http"
import { BadRequest, PayloadTooLarge } from "../domain/errors.ts"

const tooLarge = (limit: number) =>
  new PayloadTooLarge({
    message: `Request body exceeds the limit of ${limit} bytes. Send fewer or smaller messages, or prune=true.`,
    details: { limit }
  })

/**
 * Reads a JSON body under a byte limit (DESIGN §3.9): over the limit is 413,
 * malformed JSON is 400. A declared length over the limit is refused before
 * anything is read.
 */
export const readJsonBody = (request: HttpServerRequest.HttpServerRequest, limit: number) =>
  Effect.gen(function*() {
    const declared = Number(request.headers["content-length"])
    if (declared > limit) return yield* tooLarge(limit)
    const text = yield* request.text.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limit)),
      Effect.catch((error): Effect.Effect<never, BadRequest | PayloadTooLarge> =>
        error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
          ? Effect.fail(tooLarge(limit))
          : Effect.fail(new BadRequest({ message: "Could not read the request body", details: { error: "unreadable body" } }))
      )
    )
    if (text.length === 0) {
      return yield* new BadRequest({
        message: "Request body is empty: send a JSON ChatRequest",
        details: { error: "empty body" }
      })
    }
    return yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (error) => {
        const detail = error instanceof Error ? error.message : String(error)
        return new BadRequest({ message: `Malformed JSON body: ${detail}`, details: { error: detail } })
      }
    })
  })
