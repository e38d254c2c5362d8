import type { ChatProtocol } from "../../http/chatProtocol.ts"
import { withBodyPaths } from "../bodyPaths.ts"
import { topLevelModel } from "../namedModel.ts"
import { openAiErrorBody } from "../openai/error.ts"
import { collectCompletion } from "./collect.ts"
import { type CompletionWire, decodeCompletionRequest } from "./decode.ts"
import { completionStream } from "./encode.ts"

/**
 * OpenAI's Chat Completions, `POST /v1/chat/completions` (docs/DESIGN.md
 * §14): any OpenAI client reaches parley's governed tool loop unchanged.
 */
export const chatCompletionsProtocol: ChatProtocol<CompletionWire> = {
  name: "chat-completions",
  namedModel: topLevelModel,
  decode: decodeCompletionRequest,
  stream: completionStream,
  collect: collectCompletion,
  errorBody: (failure, _correlationId, wire) =>
    openAiErrorBody(failure === undefined || wire === undefined ? failure : withBodyPaths(failure, wire.origins))
}
