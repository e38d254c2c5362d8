import { Cause, Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Protocol } from "../domain/protocols.ts"
import { Metrics } from "../observability/GatewayMetrics.ts"
import type { RequestLog } from "../observability/RequestLog.ts"
import { stageOf, type WriteStage } from "./answerWrites.ts"
import type { ChatProtocol } from "./chatProtocol.ts"
import type { RequestFacts } from "./chatRun.ts"
import type { ErrorBody } from "./errorResponse.ts"
import { writeError } from "./nodeAnswers.ts"
import { settleUnreadBody } from "./nodeBody.ts"

/**
 * Tells of a write of an answer that threw (docs/DESIGN.md §3.25): one log line
 * with the correlation id, and `parley_response_write_failures_total`. Made once per route.
 */
export const makeWriteFailureReport = Effect.gen(function*() {
  const metrics = yield* Metrics
  const context = yield* Effect.context<never>()
  return (protocol: Protocol, stage: WriteStage, error: unknown, correlationId: string): void => {
    metrics.responseWriteFailure(protocol, stage)
    Effect.runForkWith(context)(
      Effect.logError("Response write failed", { stage, protocol }, Cause.die(error)).pipe(
        Effect.annotateLogs({ correlationId })
      )
    )
  }
})

/**
 * How a chat route (`hotRoute.ts`) answers when a write of one answer throws
 * (docs/DESIGN.md §3.25): `factsOf` gives each request the `writeFailed` its
 * writes tell, and `answerError` writes an error body, a throw told so too.
 */
export const makeWriteFailures = <Wire>(protocol: Pick<ChatProtocol<Wire>, "name" | "errorBody">) =>
  Effect.gen(function*() {
    const report = yield* makeWriteFailureReport

    const unexpected = (correlationId: string) => protocol.errorBody(undefined, correlationId, undefined)

    /** An error body before anything was sent; a throw writing it is told. */
    const answerError = (
      req: IncomingMessage,
      res: ServerResponse,
      correlationId: string,
      facts: RequestFacts,
      errorBody: ErrorBody
    ) => {
      try {
        settleUnreadBody(req, res)
        writeError(res, errorBody, correlationId)
      } catch (error) {
        facts.writeFailed(error, stageOf(res))
      }
    }

    /**
     * That answer ends, in the door's error envelope when nothing was sent
     * yet, else with the door's ending for a stream that broke off (the
     * connection cut when even that cannot be written); the route interrupts
     * its run once the response closed, which aborts the model call and kills
     * the tools. Logged and counted once: a second throw only cuts the connection.
     */
    const writeFailed = (
      req: IncomingMessage,
      res: ServerResponse,
      correlationId: string,
      facts: RequestFacts,
      log: RequestLog,
      error: unknown,
      stage: WriteStage
    ) => {
      if (facts.writeFailure !== undefined) return void res.destroy()
      facts.writeFailure = stage
      log.outcome = "ResponseWriteFailed"
      report(protocol.name, stage, error, correlationId)
      // A kept copy of the stream ends so too.
      facts.sse?.fail(undefined)
      if (res.writableEnded || res.destroyed) return
      if (res.headersSent) return void res.destroy()
      answerError(req, res, correlationId, facts, unexpected(correlationId))
    }

    // The closure goes in an object literal: one assigned to a property as it is made is pretenured (DESIGN §12).
    const factsOf = (req: IncomingMessage, res: ServerResponse, correlationId: string, log: RequestLog) => {
      const facts: RequestFacts = {
        startedAt: Date.now(),
        protocol: protocol.name,
        writeFailed: (error, stage) => writeFailed(req, res, correlationId, facts, log, error, stage)
      }
      return facts
    }

    return { factsOf, answerError, unexpected }
  })
