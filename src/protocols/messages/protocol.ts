import { Effect } from "effect"
import type { ChatProtocol } from "../../http/chatProtocol.ts"
import { McpRegistry } from "../../mcp/McpRegistry.ts"
import { ToolRegistry } from "../../tools/ToolRegistry.ts"
import { anthropicErrorBody } from "../anthropic/error.ts"
import { withBodyPaths } from "../bodyPaths.ts"
import { withHostedTools } from "../hostedTools.ts"
import { topLevelModel } from "../namedModel.ts"
import { collectMessage } from "./collect.ts"
import { decodeMessagesRequest, type MessagesWire } from "./decode.ts"
import { messagesStream } from "./encode.ts"

/**
 * Anthropic's Messages, `POST /v1/messages` (docs/DESIGN.md §14): Anthropic's
 * SDKs and Claude Code reach parley's governed tool loop unchanged. Built
 * over parley's tools and MCP servers, which `mcp_servers` names.
 */
export const makeMessagesProtocol = Effect.gen(function*() {
  const services = { tools: yield* ToolRegistry, mcp: yield* McpRegistry }
  return {
    name: "messages",
    apiKeyHeader: true,
    answerHeaders: (correlationId) => ({ "request-id": correlationId }),
    namedModel: topLevelModel,
    decode: (body, key) =>
      Effect.flatMap(decodeMessagesRequest(body), (decoded) => withHostedTools(services, key, decoded)),
    stream: messagesStream,
    collect: collectMessage,
    errorBody: (failure, correlationId, wire) => {
      const answer = anthropicErrorBody(
        failure === undefined || wire === undefined ? failure : withBodyPaths(failure, wire.origins, wire.places)
      )
      // As the correlation id's own header, never on a 401.
      return answer.status === 401 ? answer : { ...answer, headers: { ...answer.headers, "request-id": correlationId } }
    }
  } satisfies ChatProtocol<MessagesWire>
})
