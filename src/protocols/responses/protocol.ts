import { Effect } from "effect"
import { AppConfig } from "../../config/AppConfig.ts"
import type { ApiKey } from "../../domain/ApiKey.ts"
import type { ChatProtocol } from "../../http/chatProtocol.ts"
import { McpRegistry } from "../../mcp/McpRegistry.ts"
import { type ResponseLookup, StoredResponses } from "../../store/StoredResponses.ts"
import { ToolRegistry } from "../../tools/ToolRegistry.ts"
import { withBodyPaths } from "../bodyPaths.ts"
import { withHostedTools } from "../hostedTools.ts"
import { topLevelModel } from "../namedModel.ts"
import { openAiErrorBody } from "../openai/error.ts"
import { acceptedOf } from "./background.ts"
import { collectResponse } from "./collect.ts"
import { decodeResponsesRequest, type ResponsesWire } from "./decode.ts"
import { responsesStream } from "./encode.ts"
import { alsoApproved } from "./hostedMcp.ts"
import { referencedBody } from "./itemReferences.ts"
import { Replay } from "./replay.ts"
import { continuedBody } from "./stored.ts"

/**
 * OpenAI's Responses, `POST /v1/responses` (docs/DESIGN.md §14): OpenAI's
 * SDKs, the Agents SDK and Codex reach parley's governed tool loop unchanged.
 * Built over parley's tools and MCP servers, which `mcp` tools name, and
 * the stored responses (`store`, `previous_response_id`, `item_reference`)
 * and the background ones (`background`).
 */
export const makeResponsesProtocolOver = Effect.gen(function*() {
  const services = { tools: yield* ToolRegistry, mcp: yield* McpRegistry }
  const stored = yield* StoredResponses
  const { bodyLimitBytes } = yield* AppConfig
  /**
   * `lookup`: where continued and referenced responses are found (a WebSocket connection's own first,
   * ./socket.ts); `continued`: told each request's whole conversation, its key's, once decoded.
   */
  return (
    lookup: ResponseLookup = stored,
    continued?: (body: unknown, key: ApiKey) => void
  ): ChatProtocol<ResponsesWire> => ({
    name: "responses",
    namedModel: topLevelModel,
    decode: (body, key) =>
      Effect.flatMap(
        // References are resolved first: their places are the client's, before a continuation's items.
        referencedBody(lookup, key, bodyLimitBytes, body).pipe(
          Effect.flatMap((resolved) => continuedBody(lookup, key, bodyLimitBytes, resolved)),
          Effect.flatMap((full) => {
            continued?.(full, key)
            return decodeResponsesRequest(full, key)
          })
        ),
        (decoded) =>
          withHostedTools(services, key, decoded, (allowedTools) => ({
            approvalAlso: alsoApproved(decoded.tools, allowedTools)
          }))
      ),
    // A background response's events are kept under its id, and the run goes on without its client.
    keptId: (wire) => wire.background === undefined ? undefined : wire.stored?.id,
    // A replay of all its events (the resume and admin routes); `?stream=true` asks its own (`starting_after`).
    replay: () => new Replay(-1),
    accepted: acceptedOf,
    stream: responsesStream,
    collect: collectResponse,
    keep: ({ wire }, answer) =>
      wire.stored === undefined || answer === undefined ? undefined : stored.put({
        id: wire.stored.id,
        keyId: wire.stored.keyId,
        input: JSON.stringify(wire.stored.input),
        response: JSON.stringify(answer)
      }),
    errorBody: (failure, _correlationId, wire) =>
      openAiErrorBody(
        failure === undefined || wire === undefined
          ? failure
          : withBodyPaths(failure, wire.origins, wire.places, "input"),
        "input"
      )
  })
})

/** The door's protocol, over the stored responses. */
export const makeResponsesProtocol = Effect.map(makeResponsesProtocolOver, (over) => over())
