import { Cause, Effect, Fiber } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Agent } from "../agent/Agent.ts"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { ChatPlanner } from "../chat/ChatPlanner.ts"
import { chatResponseBody } from "../chat/chatResponseBody.ts"
import { AppConfig } from "../config/AppConfig.ts"
import type { ProviderFailure } from "../models/ProviderFailure.ts"
import { planHeaders } from "./chatHeaders.ts"
import { correlationIdFor } from "./CorrelationId.ts"
import { errorBody, logUnexpected, unexpectedBody } from "./errorResponse.ts"
import { type ApiFailure, wireError } from "./errorTable.ts"
import { writeError, writeJson } from "./nodeAnswers.ts"
import { readJsonBody, settleUnreadBody } from "./nodeBody.ts"
import { ServerShuttingDown } from "./requestErrors.ts"
import { ServerDrain } from "./ServerDrain.ts"
import { SseWriter } from "./SseWriter.ts"

const CHAT_PATH = "/api/v1/chat"

// What a stream's `error` chunk says when the provider fails after the stream began: the error table's message.
const failureText = (failure: ProviderFailure) => wireError(failure).message

/** The requests this route answers: exactly POST /api/v1/chat, with or without a query. */
export const isChatRequest = (method: string | undefined, url: string | undefined): boolean =>
  method === "POST" && url !== undefined && (url === CHAT_PATH || url.startsWith(`${CHAT_PATH}?`))

export type NodeRoute = (req: IncomingMessage, res: ServerResponse) => void

/**
 * POST /api/v1/chat on Node's own request and response: authentication,
 * correlation id, body, plan, run, and the answer written straight to the
 * socket. It is the gateway's hot path, so it skips the router and the
 * HttpServerResponse layer (0.2 ms a request, BENCHMARKS.md) while keeping
 * every rule the routed endpoints follow: the spec's error bodies, 401s
 * without a correlation id, nothing internal in a 500, and a client that
 * goes away interrupting the run (which aborts the model call and the tools).
 */
export const makeChatRoute = Effect.gen(function*() {
  const keys = yield* ApiKeys
  const config = yield* AppConfig
  const agent = yield* Agent
  const planner = yield* ChatPlanner
  const drain = yield* ServerDrain
  const scope = yield* Effect.scope
  const context = yield* Effect.context<never>()

  const answer = (req: IncomingMessage, res: ServerResponse, correlationId: string, stream: { sse?: SseWriter }) =>
    Effect.gen(function*() {
      const key = yield* keys.authenticate(req.headers.authorization)
      const body = yield* readJsonBody(req, res, config.bodyLimitBytes)
      const plan = yield* planner.plan(body, key)
      const headers = planHeaders(plan, correlationId)
      if (plan._tag === "Report") return writeJson(res, 200, plan.report, headers)
      if (!plan.stream) {
        const collected = yield* agent.collect(plan.run)
        return writeJson(res, 200, chatResponseBody(collected, plan.input, plan.tools), headers)
      }
      const sse = stream.sse = new SseWriter(res, headers)
      yield* agent.run(plan.run, sse.emit, failureText, sse)
      sse.end()
    })

  // A failure before the answer started is an error body; after, it ends the stream (docs/DESIGN.md §3.3).
  const fail = (
    cause: Cause.Cause<ApiFailure>,
    req: IncomingMessage,
    res: ServerResponse,
    correlationId: string,
    sse: SseWriter | undefined
  ) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.void
    const failure = Cause.findErrorOption(cause)
    if (failure._tag === "Some") {
      if (sse?.started) return Effect.sync(() => sse.fail(wireError(failure.value).message))
      return Effect.sync(() => {
        settleUnreadBody(req, res)
        writeError(res, errorBody(failure.value, correlationId), correlationId)
      })
    }
    const unexpected = unexpectedBody(correlationId)
    return logUnexpected(cause, correlationId).pipe(
      Effect.andThen(Effect.sync(() => {
        if (sse?.started) sse.fail(String(unexpected.body.message))
        else if (!res.headersSent) {
          settleUnreadBody(req, res)
          writeError(res, unexpected, correlationId)
        } else res.destroy()
      }))
    )
  }

  // The grace is over (docs/DESIGN.md §8): the run is stopped (its tools killed) and the client told so.
  const shutDown = (req: IncomingMessage, res: ServerResponse, correlationId: string, sse: SseWriter | undefined) => {
    if (res.writableEnded) return
    const failure = new ServerShuttingDown()
    if (sse?.started) return sse.fail(failure.message)
    if (res.headersSent) return void res.destroy()
    settleUnreadBody(req, res)
    writeError(res, errorBody(failure, correlationId), correlationId)
  }

  return ((req, res) => {
    const correlationId = correlationIdFor(req.headers["x-correlation-id"] as string | undefined)
    const stream: { sse?: SseWriter } = {}
    const program = answer(req, res, correlationId, stream).pipe(
      Effect.catchCause((cause) => fail(cause, req, res, correlationId, stream.sse))
    )
    const fiber = Fiber.runIn(Effect.runForkWith(context)(program), scope)
    if (fiber.pollUnsafe() !== undefined) return
    res.once("close", () => {
      if (!res.writableEnded) fiber.interruptUnsafe()
    })
    drain.track(res, () => {
      fiber.addObserver(() => shutDown(req, res, correlationId, stream.sse))
      fiber.interruptUnsafe()
    })
  }) satisfies NodeRoute
})
