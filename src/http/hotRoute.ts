import { Cause, Effect, Exit, Fiber } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { ChatPlanner } from "../chat/ChatPlanner.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { UsageLedger } from "../ledger/UsageLedger.ts"
import { requestObserver } from "../observability/observeRequest.ts"
import type { RequestLog } from "../observability/RequestLog.ts"
import { traced, Tracing } from "../observability/Tracing.ts"
import { planHeaders } from "./chatHeaders.ts"
import type { ChatProtocol } from "./chatProtocol.ts"
import { answerJson, makeChatRun, type RequestFacts } from "./chatRun.ts"
import { correlationIdFor } from "./CorrelationId.ts"
import { logUnexpected } from "./errorResponse.ts"
import type { ApiFailure } from "./errorTable.ts"
import type { KeptRun } from "./KeptRuns.ts"
import { readJsonBody } from "./nodeBody.ts"
import { ServerShuttingDown } from "./requestErrors.ts"
import { ServerDrain } from "./ServerDrain.ts"
import { makeWriteFailures } from "./writeFailures.ts"

export type NodeRoute = (req: IncomingMessage, res: ServerResponse) => void

/**
 * A resumable run's kept stream ends with its request: a stream that began
 * ended itself (its writer's last text), unless the run was interrupted,
 * which only the server stopping does to such a run; one that never began
 * holds nothing (its failure was an error body). An accepted run that did
 * not end by its end keeps how it ended (`settle`: a background response
 * `failed`), and the request waits until the store has the stream's end, so
 * that a server stopping leaves no kept run running (docs/DESIGN.md §16).
 */
const endKept = (facts: RequestFacts, kept: KeptRun, exit: Exit.Exit<unknown, unknown>) => {
  const sse = facts.sse
  // Interrupted because its answer could not be written, the run failed: nothing expected it.
  const failure = facts.writeFailure === undefined ? new ServerShuttingDown() : undefined
  if (sse?.started === true && Exit.hasInterrupts(exit)) sse.fail(failure)
  kept.stream.end()
  kept.release()
  const settled = Exit.isSuccess(exit) || facts.settle === undefined
    ? Effect.void
    : facts.settle(failure)
  return Effect.andThen(settled, Effect.promise(() => kept.stream.finished()))
}

/**
 * A protocol's chat route on Node's own request and response (docs/DESIGN.md
 * §14). It owns what every protocol route shares: the correlation id,
 * authentication, planning, admission (by governance, `chat/Governance.ts`,
 * around the run in `chatRun.ts`), the ledger row, the shutdown drain, and
 * interruption when the client leaves (which aborts the model call and the
 * tools); the protocol decodes the body and words the answer. It is the gateway's hot path, so it skips the router
 * and the HttpServerResponse layer (0.2 ms a request, BENCHMARKS.md) while
 * keeping every rule the routed endpoints follow: error bodies, 401s without
 * a correlation id, nothing internal in a 500. A write of the answer that
 * throws ends that answer only (docs/DESIGN.md §3.25).
 */
export const makeHotRoute = <Wire>(protocol: ChatProtocol<Wire>) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const config = yield* AppConfig
    const planner = yield* ChatPlanner
    const ledger = yield* UsageLedger
    const drain = yield* ServerDrain
    const scope = yield* Effect.scope
    const context = yield* Effect.context<never>()
    const observer = yield* requestObserver
    const tracing = yield* Tracing
    const chatRun = yield* makeChatRun
    const { answerError, factsOf, unexpected } = yield* makeWriteFailures(protocol)
    // A request's decoded options, for the errors after decoding (their paths are the body's own).
    const decoded = new WeakMap<RequestFacts, Wire>()

    // Made once: a generator function made per request would keep each request's objects past two scavenges.
    const answer = Effect.fnUntraced(function*(
      req: IncomingMessage,
      res: ServerResponse,
      correlationId: string,
      facts: RequestFacts,
      log: RequestLog
    ) {
      const key = facts.key = yield* traced(
        tracing,
        keys.authenticate(
          req.headers.authorization,
          protocol.apiKeyHeader === true ? req.headers["x-api-key"] as string | undefined : undefined
        ),
        "authenticate",
        () => ({})
      )
      log.keyed(key)
      const body = yield* readJsonBody(req, res, config.bodyLimitBytes)
      facts.model = protocol.namedModel(body)
      const { request, wire } = yield* protocol.decode(body, key)
      facts.model = request.model
      decoded.set(facts, wire)
      const plan = facts.plan = yield* planner.plan(request, key)
      const headers = { ...planHeaders(plan, correlationId), ...protocol.answerHeaders?.(correlationId) }
      if (plan._tag === "Report") return answerJson(res, 200, plan.report, headers, facts)
      // Admitted by governance before the model is called (chatRun.ts, docs/DESIGN.md §11).
      return yield* chatRun.answer(protocol, res, { plan, wire, correlationId }, headers, facts, log)
    })

    // One ledger row per authenticated request, however it ended (docs/DESIGN.md §7): a push onto a buffer.
    const record = (
      facts: RequestFacts,
      res: ServerResponse,
      correlationId: string,
      exit: Exit.Exit<unknown, unknown>
    ) =>
      Effect.suspend(() => {
        const ended = facts.kept === undefined ? Effect.void : endKept(facts, facts.kept, exit)
        ledger.recordChat(facts, correlationId, {
          status: res.headersSent ? res.statusCode : undefined,
          firstByteAt: facts.sse?.firstByteAt ?? (res.headersSent ? Date.now() : undefined),
          // A run interrupted because its answer could not be written failed; nobody cancelled it.
          cancelled: Exit.hasInterrupts(exit) && facts.writeFailure === undefined
        })
        return ended
      })

    // A failure before the answer started is an error body; after, it ends the stream (docs/DESIGN.md §3.3).
    const fail = (
      cause: Cause.Cause<ApiFailure>,
      req: IncomingMessage,
      res: ServerResponse,
      correlationId: string,
      facts: RequestFacts,
      log: RequestLog
    ) => {
      if (Cause.hasInterruptsOnly(cause)) return Effect.void
      const failure = Cause.findErrorOption(cause)
      const sse = facts.sse
      log.outcome = failure._tag === "Some" ? failure.value._tag : "unexpected"
      // An accepted run keeps how it failed, once its stream (if it began) told it.
      const settled = facts.settle?.(failure._tag === "Some" ? failure.value : undefined) ?? Effect.void
      if (failure._tag === "Some") {
        if (failure.value._tag === "LimitExceeded") facts.refusedLimit = failure.value.limit
        if (sse?.started) return Effect.andThen(Effect.sync(() => sse.fail(failure.value)), settled)
        // Answered at once (an accepted run): it has nothing more to write.
        if (res.writableEnded) return settled
        return Effect.andThen(
          settled,
          Effect.sync(() =>
            answerError(
              req,
              res,
              correlationId,
              facts,
              protocol.errorBody(failure.value, correlationId, decoded.get(facts))
            )
          )
        )
      }
      return logUnexpected(cause, correlationId).pipe(
        Effect.andThen(Effect.sync(() => {
          if (sse?.started) sse.fail(undefined)
          else if (res.writableEnded) return
          else if (!res.headersSent) answerError(req, res, correlationId, facts, unexpected(correlationId))
          else res.destroy()
        })),
        Effect.andThen(settled)
      )
    }

    // The grace is over (docs/DESIGN.md §8): the run is stopped (its tools killed) and the client told so.
    const shutDown = (req: IncomingMessage, res: ServerResponse, correlationId: string, facts: RequestFacts) => {
      if (res.writableEnded) return
      const failure = new ServerShuttingDown()
      if (facts.sse?.started) return facts.sse.fail(failure)
      if (res.headersSent) return void res.destroy()
      answerError(req, res, correlationId, facts, protocol.errorBody(failure, correlationId, undefined))
    }

    return ((req, res) => {
      const correlationId = correlationIdFor(req.headers["x-correlation-id"] as string | undefined)
      const log = observer.start(correlationId, req.method, req.url)
      const facts = factsOf(req, res, correlationId, log)
      const program = observer.observe(
        log,
        answer(req, res, correlationId, facts, log).pipe(
          Effect.catchCause((cause) => fail(cause, req, res, correlationId, facts, log)),
          Effect.onExit((exit) => record(facts, res, correlationId, exit))
        ),
        () => res.headersSent ? res.statusCode : 499
      )
      const fiber = Fiber.runIn(Effect.runForkWith(context)(program), scope)
      if (fiber.pollUnsafe() !== undefined) return
      // A resumable run goes on without its client (docs/DESIGN.md §16); any other is cancelled.
      res.once("close", () => {
        if (fiber.pollUnsafe() !== undefined) return
        // An answer that could not be written ends its run, kept or not.
        if (facts.writeFailure !== undefined) return fiber.interruptUnsafe()
        if (facts.kept === undefined) {
          if (!res.writableEnded) fiber.interruptUnsafe()
          return
        }
        // Still the server's to finish, or to fail once the shutdown grace is over.
        fiber.addObserver(drain.hold(() => fiber.interruptUnsafe()))
      })
      drain.track(res, () => {
        fiber.addObserver(() => shutDown(req, res, correlationId, facts))
        fiber.interruptUnsafe()
      })
    }) satisfies NodeRoute
  })
