import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { RunMeter } from "../agent/RunMeter.ts"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { AppConfig } from "../config/AppConfig.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import { Admission } from "../governance/Admission.ts"
import { NO_RUN_MODEL, type ToolCallFacts } from "../ledger/toolCallEvent.ts"
import { UsageLedger } from "../ledger/UsageLedger.ts"
import { McpRegistry } from "../mcp/McpRegistry.ts"
import { ToolRegistry } from "../tools/ToolRegistry.ts"
import { CorrelationId } from "./CorrelationId.ts"
import { errorBody, renderError } from "./errorResponse.ts"
import { originAllowed } from "./mcpOrigin.ts"
import { callToolFor, listToolsFor, type McpToolServices } from "./mcpTools.ts"
import { ForeignOrigin } from "./requestErrors.ts"

/** What a request's tool calls are recorded with: the ledger, and the request's correlation id. */
interface Recording {
  readonly ledger: UsageLedger["Service"]
  readonly correlationId: string
}

/**
 * One MCP server per request, stateless (no session): every POST carries its
 * key, so each is answered under that key's rules alone. Answers are JSON
 * (no SSE stream); the client leaving aborts a running tool. Each tools/call
 * writes one ledger row (docs/DESIGN.md §7), however it ends.
 */
const answer = (
  services: McpToolServices,
  key: ApiKey,
  recording: Recording,
  request: Request,
  left: AbortSignal,
  run: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>
): Promise<Response> => {
  const server = new Server({ name: "parley", version: "0.1.0" }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await run(listToolsFor(services, key)) }))
  server.setRequestHandler(CallToolRequestSchema, (call, extra) => {
    const signal = AbortSignal.any([extra.signal, left])
    const facts: ToolCallFacts = { startedAt: Date.now(), key, meter: new RunMeter(NO_RUN_MODEL) }
    const { correlationId } = recording
    const called = { name: call.params.name, args: call.params.arguments ?? {}, correlationId }
    return run(
      callToolFor(services, facts, called, signal).pipe(
        Effect.ensuring(Effect.sync(() => recording.ledger.recordToolCall(facts, correlationId, signal.aborted))),
        // Off the allow-list, or no such tool: a protocol error, as MCP answers an unknown tool, with /chat's error body.
        Effect.catch((error) =>
          Effect.die(new McpError(ErrorCode.InvalidParams, error.message, errorBody(error, correlationId).body))
        )
      )
    ).catch((error: unknown) => {
      // A defect carrying the protocol error: rethrown as it is, so the client reads an Invalid params error.
      const cause = (error as { cause?: unknown } | null)?.cause
      throw cause instanceof McpError ? cause : error
    })
  })
  // No `sessionIdGenerator`: stateless.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
  return server.connect(transport)
    .then(() => transport.handleRequest(request))
    .finally(() => server.close().catch(() => undefined))
}

/**
 * parley as an MCP server at /mcp (docs/DESIGN.md §9): streamable HTTP with
 * `Authorization: Bearer <API key>`. Not under /api/, so the key is checked
 * here; a refusal is the spec's 401 with `WWW-Authenticate: Bearer`. Only
 * POST is served (no server-initiated stream): GET and DELETE are 405. A
 * browser page is refused first (403), key or not, unless its origin is
 * listed or parley's own under a loopback name (mcpOrigin.ts).
 */
export const McpEndpoint = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const { corsOrigins } = (yield* AppConfig).operations
    const services: McpToolServices = {
      tools: yield* ToolRegistry,
      mcp: yield* McpRegistry,
      admission: yield* Admission
    }
    const ledger = yield* UsageLedger
    yield* router.add("*", "/mcp", (request) =>
      Effect.gen(function*() {
        const origin = request.headers.origin
        if (!originAllowed(origin, request.headers.host, corsOrigins)) {
          return renderError(new ForeignOrigin({ origin: origin ?? "" }), "")
        }
        const verified = yield* Effect.result(keys.authenticate(request.headers.authorization))
        if (verified._tag === "Failure") {
          return HttpServerResponse.setHeader(renderError(verified.failure, ""), "www-authenticate", "Bearer")
        }
        if (request.method !== "POST") {
          return HttpServerResponse.empty({ status: 405, headers: { allow: "POST" } })
        }
        const web = yield* HttpServerRequest.toWeb(request)
        const context = yield* Effect.context<never>()
        const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromiseWith(context)(effect)
        const recording = { ledger, correlationId: yield* CorrelationId }
        const response = yield* Effect.promise((left) => answer(services, verified.success, recording, web, left, run))
        return HttpServerResponse.fromWeb(response)
      }).pipe(Effect.orDie))
  })
)
