import { Effect } from "effect"
import type { ServerResponse } from "node:http"
import { Agent } from "../agent/Agent.ts"
import type { RunSummary } from "../agent/RunSummary.ts"
import { Governance } from "../chat/Governance.ts"
import type { ChatFacts } from "../ledger/chatEvent.ts"
import { requestObserver } from "../observability/observeRequest.ts"
import type { RequestLog } from "../observability/RequestLog.ts"
import { stageOf, type WriteFailed, type WriteStage } from "./answerWrites.ts"
import type { Answering, ChatProtocol } from "./chatProtocol.ts"
import type { AnswerStream, StreamEncoding } from "./EncodedStream.ts"
import type { ApiFailure } from "./errorTable.ts"
import { type KeptRun, KeptRuns } from "./KeptRuns.ts"
import { writeJson } from "./nodeAnswers.ts"
import { SseWriter } from "./SseWriter.ts"

/**
 * What the request learned for its ledger row, its stream once it has one, and that stream's kept copy;
 * `settle`: what an accepted run (`ChatProtocol.accepted`) keeps of its answer when it ended otherwise
 * than by its end (given the failure that ended it, for one whose stream never began); `writeFailed`:
 * what a write of the answer that threw is told to (docs/DESIGN.md §3.25), and `writeFailure` where it
 * threw, once it did.
 */
export type RequestFacts = ChatFacts & {
  sse?: AnswerStream
  kept?: KeptRun
  settle?: (failure: ApiFailure | undefined) => Effect.Effect<void>
  readonly writeFailed: WriteFailed
  writeFailure?: WriteStage
}

/** `writeJson`, a throw told to the request's `writeFailed` rather than thrown (docs/DESIGN.md §3.25). */
export const answerJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  facts: RequestFacts
) => {
  try {
    writeJson(res, status, body, headers)
  } catch (error) {
    facts.writeFailed(error, stageOf(res))
  }
}

/**
 * How an accepted run that did not end keeps its ending: a stream that never
 * began is ended by the failure, so what is kept says it. Made here, not where
 * it is assigned: a closure assigned to a property as it is made is pretenured
 * (docs/DESIGN.md §12).
 */
const settleKept = (encoding: StreamEncoding, keepWhole: Effect.Effect<void>) => (failure: ApiFailure | undefined) =>
  Effect.suspend(() => {
    if (encoding.whole?.() === undefined) encoding.broken(failure)
    return keepWhole
  })

/**
 * Where a streamed run's answer goes (`sink`: the response of an HTTP request, a WebSocket's session) and how
 * its stream is opened there once governance admitted the run, with the admission's headers.
 */
export type OpenStream<Sink> = (
  sink: Sink,
  headers: Record<string, string>,
  encoding: StreamEncoding,
  facts: RequestFacts
) => AnswerStream

// An HTTP request's stream: server-sent events on its response, a kept run's copied to its kept stream.
const openSse: OpenStream<ServerResponse> = (res, headers, encoding, facts) =>
  new SseWriter(res, headers, encoding, facts.writeFailed, facts.kept?.stream)

/**
 * The run of a planned chat request, once governance admits it, answered in
 * its protocol: streamed through the protocol's encoding as the agent emits,
 * or collected and folded into one JSON body (`answer`, an HTTP request's); or
 * streamed to a sink of the caller's (`stream`, a WebSocket turn's). What the
 * run ended with goes to the facts.
 */
export const makeChatRun = Effect.gen(function*() {
  const agent = yield* Agent
  const governance = yield* Governance
  const observer = yield* requestObserver
  const keptRuns = yield* KeptRuns

  // Once the run ended and before the stream's end, what the protocol keeps of it (a stored response).
  const keepWholeOf = <Wire>(protocol: ChatProtocol<Wire>, answering: Answering<Wire>, encoding: StreamEncoding) =>
    Effect.suspend(() => {
      const whole = protocol.keep === undefined ? undefined : encoding.whole?.()
      return whole === undefined ? Effect.void : protocol.keep?.(answering, whole) ?? Effect.void
    })

  const streamRun = <Wire, Sink>(
    protocol: ChatProtocol<Wire>,
    answering: Answering<Wire>,
    encoding: StreamEncoding,
    keepWhole: Effect.Effect<void>,
    sink: Sink,
    open: OpenStream<Sink>,
    headers: Record<string, string>,
    facts: RequestFacts,
    log: RequestLog
  ) => {
    const stored = (summary: RunSummary) => Effect.as(keepWhole, summary)
    return governance.admitted(answering.plan, (run, admitted) => {
      observer.running(log, "stream")
      const kept = facts.kept
      const sse = facts.sse = open(sink, { ...headers, ...admitted }, encoding, facts)
      return Effect.flatMap(
        agent.run(kept === undefined ? run : { ...run, stop: kept.stopped }, {
          emit: sse.emit,
          resetsStep: protocol.resetsStep,
          streams: true
        }, sse),
        stored
      )
    }, (summary) => {
      facts.summary = summary
      const failure = facts.sse?.failure
      if (failure !== undefined) log.outcome = failure._tag
      log.ran(summary)
      facts.sse?.end()
    })
  }

  // However the run ended: a route that failed on every target names its attempts too.
  const routedOf = (plan: Answering<unknown>["plan"], log: RequestLog) => {
    log.model = plan.entry.id
    return Effect.sync(() => log.routed(plan.run.meter))
  }

  const answer = <Wire>(
    protocol: ChatProtocol<Wire>,
    res: ServerResponse,
    answering: Answering<Wire>,
    headers: Record<string, string>,
    facts: RequestFacts,
    log: RequestLog
  ) => {
    const plan = answering.plan
    const routed = routedOf(plan, log)
    if (!plan.stream) {
      return Effect.ensuring(
        governance.admitted(plan, (run) => {
          observer.running(log, "json")
          return Effect.flatMap(agent.collect(run), (collected) => {
            const body = protocol.collect(collected, answering)
            return Effect.as(protocol.keep?.(answering, body) ?? Effect.void, { collected, body })
          })
        }, ({ body, collected }, admitted) => {
          facts.summary = collected.summary
          log.ran(collected.summary)
          answerJson(res, 200, body, { ...headers, ...admitted }, facts)
        }),
        routed
      )
    }
    const encoding = protocol.stream(answering)
    const keepWhole = keepWholeOf(protocol, answering, encoding)
    const keptId = protocol.keptId?.(answering.wire)
    const streamed = streamRun(protocol, answering, encoding, keepWhole, res, openSse, headers, facts, log)
    // A resumable run's stream is kept from before governance admits it: what any ending writes is kept too.
    const kept = keptId === undefined || facts.key === undefined ? streamed : Effect.flatMap(
      keptRuns.start(keptId, facts.key, protocol.name),
      (run) => {
        facts.kept = run
        const accepted = protocol.accepted?.(answering)
        if (accepted === undefined) return streamed
        facts.settle = settleKept(encoding, keepWhole)
        return (protocol.keep?.(answering, accepted.answer) ?? Effect.void).pipe(
          Effect.andThen(Effect.sync(() => {
            if (accepted.detached) answerJson(res, 200, accepted.answer, headers, facts)
          })),
          Effect.andThen(streamed)
        )
      }
    )
    return Effect.ensuring(kept, routed)
  }

  /** A run streamed to `sink` through `open` (a WebSocket turn's): never kept, never answered in one piece. */
  const stream = <Wire, Sink>(
    protocol: ChatProtocol<Wire>,
    sink: Sink,
    open: OpenStream<Sink>,
    answering: Answering<Wire>,
    headers: Record<string, string>,
    facts: RequestFacts,
    log: RequestLog
  ) => {
    const encoding = protocol.stream(answering)
    const keepWhole = keepWholeOf(protocol, answering, encoding)
    return Effect.ensuring(
      streamRun(protocol, answering, encoding, keepWhole, sink, open, headers, facts, log),
      routedOf(answering.plan, log)
    )
  }

  return { answer, stream }
})
