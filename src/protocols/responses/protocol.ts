import type { ChatProtocol } from "../../http/chatProtocol.ts"
import { withBodyPaths } from "../bodyPaths.ts"
import { openAiErrorBody } from "../openai/error.ts"
import { collectResponse } from "./collect.ts"
import { decodeResponsesRequest, type ResponsesWire } from "./decode.ts"
import { responsesStream } from "./encode.ts"

/**
 * OpenAI's Responses, `POST /v1/responses` (docs/DESIGN.md §14): OpenAI's
 * SDKs, the Agents SDK and Codex reach parley's governed tool loop unchanged.
 */
export const responsesProtocol: ChatProtocol<ResponsesWire> = {
  name: "responses",
  decode: decodeResponsesRequest,
  stream: responsesStream,
  collect: collectResponse,
  errorBody: (failure, _correlationId, wire) =>
    openAiErrorBody(
      failure === undefined || wire === undefined
        ? failure
        : withBodyPaths(failure, wire.origins, wire.places, "input"),
      "input"
    )
}
