import { Effect } from "effect"
import type { ChatProtocol } from "../../http/chatProtocol.ts"
import { McpRegistry } from "../../mcp/McpRegistry.ts"
import { ToolRegistry } from "../../tools/ToolRegistry.ts"
import { withBodyPaths } from "../bodyPaths.ts"
import { withHostedTools } from "../hostedTools.ts"
import { openAiErrorBody } from "../openai/error.ts"
import { collectResponse } from "./collect.ts"
import { decodeResponsesRequest, type ResponsesWire } from "./decode.ts"
import { responsesStream } from "./encode.ts"
import { alsoApproved } from "./hostedMcp.ts"

/**
 * OpenAI's Responses, `POST /v1/responses` (docs/DESIGN.md §14): OpenAI's
 * SDKs, the Agents SDK and Codex reach parley's governed tool loop unchanged.
 * Built over parley's tools and MCP servers, which `mcp` tools name.
 */
export const makeResponsesProtocol = Effect.gen(function*() {
  const services = { tools: yield* ToolRegistry, mcp: yield* McpRegistry }
  return {
    name: "responses",
    decode: (body, key) =>
      Effect.flatMap(
        decodeResponsesRequest(body),
        (decoded) =>
          withHostedTools(services, key, decoded, (allowedTools) => ({
            approvalAlso: alsoApproved(decoded.tools, allowedTools)
          }))
      ),
    stream: responsesStream,
    collect: collectResponse,
    errorBody: (failure, _correlationId, wire) =>
      openAiErrorBody(
        failure === undefined || wire === undefined
          ? failure
          : withBodyPaths(failure, wire.origins, wire.places, "input"),
        "input"
      )
  } satisfies ChatProtocol<ResponsesWire>
})
