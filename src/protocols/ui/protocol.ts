import type { UIMessage } from "ai"
import { Effect } from "effect"
import type { ChatProtocol } from "../../http/chatProtocol.ts"
import type { StreamEncoding } from "../../http/EncodedStream.ts"
import { errorBody, UNEXPECTED_MESSAGE, unexpectedBody } from "../../http/errorResponse.ts"
import { wireError } from "../../http/errorTable.ts"
import { topLevelModel } from "../namedModel.ts"
import { chatResponseBody } from "./answer.ts"
import { decodeUiRequest, keptIdOf } from "./decode.ts"
import { DONE, encodeEvent, encodeFailure, sseHeaders } from "./encode.ts"
import { withPartPaths } from "./partPaths.ts"

/**
 * The spec's POST /api/v1/chat (docs/DESIGN.md §3.1, §14): the AI SDK UI
 * message stream, whose chunks are the run's events as `./chunks.ts` words them.
 */
export const uiEncoding: StreamEncoding = {
  headers: sseHeaders,
  chunk: encodeEvent,
  failure: (failure) => encodeEvent({ type: "error", failure }),
  end: () => DONE,
  broken: (failure) => encodeFailure(failure === undefined ? UNEXPECTED_MESSAGE : wireError(failure).message)
}

/**
 * The ui protocol's own: the id its run is kept under when it outlives its
 * client (docs/DESIGN.md §16), and the client's messages, which a JSON answer
 * repeats and errors name places in.
 */
export interface UiWire {
  readonly keptId: string | undefined
  readonly input: ReadonlyArray<UIMessage>
}

const UI_REPLAY = {
  headers: sseHeaders,
  cut: encodeFailure("The rest of this answer was not kept: it passed the size a resumable stream may keep")
}

export const uiProtocol: ChatProtocol<UiWire> = {
  name: "ui",
  resetsStep: true,
  namedModel: topLevelModel,
  decode: (body) =>
    Effect.flatMap(
      decodeUiRequest(body),
      ({ input, request }) => Effect.map(keptIdOf(request), (keptId) => ({ request, wire: { keptId, input } }))
    ),
  keptId: (wire) => wire.keptId,
  // A resumed stream (docs/DESIGN.md §16) has the run's own headers; one that grew past its bound ends,
  // after its last kept chunk, as a broken stream does.
  replay: () => UI_REPLAY,
  // The UI message stream is the run's own: every stream is encoded alike.
  stream: () => uiEncoding,
  collect: (run, { plan, wire }) => chatResponseBody(run, wire.input, plan.tools, plan.run.resume !== undefined),
  errorBody: (failure, correlationId, wire) =>
    failure === undefined
      ? unexpectedBody(correlationId)
      : errorBody(wire === undefined ? failure : withPartPaths(failure, wire.input), correlationId)
}
