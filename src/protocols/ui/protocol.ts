import { Effect } from "effect"
import type { ChatProtocol } from "../../http/chatProtocol.ts"
import { errorBody, UNEXPECTED_MESSAGE, unexpectedBody } from "../../http/errorResponse.ts"
import { wireError } from "../../http/errorTable.ts"
import type { StreamEncoding } from "../../http/SseWriter.ts"
import { chatResponseBody } from "./answer.ts"
import { decodeUiRequest } from "./decode.ts"
import { DONE, encodeChunk, encodeFailure, sseHeaders } from "./encode.ts"

/**
 * The spec's POST /api/v1/chat (docs/DESIGN.md §3.1, §14): the AI SDK UI
 * message stream, whose chunks are the run's own. A failure is told in the
 * error table's words, as the spec's error body tells it.
 */
export const uiEncoding: StreamEncoding = {
  headers: sseHeaders,
  chunk: encodeChunk,
  failure: (failure) => encodeChunk({ type: "error", errorText: wireError(failure).message }),
  end: DONE,
  broken: (failure) => encodeFailure(failure === undefined ? UNEXPECTED_MESSAGE : wireError(failure).message)
}

export const uiProtocol: ChatProtocol<undefined> = {
  name: "ui",
  resetsStep: true,
  decode: (body) => Effect.map(decodeUiRequest(body), (request) => ({ request, wire: undefined })),
  // The UI message stream is the run's own: every stream is encoded alike.
  stream: () => uiEncoding,
  collect: (run, { plan }) => chatResponseBody(run, plan.input, plan.tools, plan.run.resume !== undefined),
  errorBody: (failure, correlationId) =>
    failure === undefined ? unexpectedBody(correlationId) : errorBody(failure, correlationId)
}
