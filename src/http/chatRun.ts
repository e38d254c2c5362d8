import { Effect } from "effect"
import type { ServerResponse } from "node:http"
import { Agent } from "../agent/Agent.ts"
import type { ChatFacts } from "../ledger/chatEvent.ts"
import { requestObserver } from "../observability/observeRequest.ts"
import type { RequestLog } from "../observability/RequestLog.ts"
import type { ChatProtocol, RunPlan } from "./chatProtocol.ts"
import { writeJson } from "./nodeAnswers.ts"
import { SseWriter } from "./SseWriter.ts"

/** What the request learned for its ledger row, and its stream once it has one. */
export type RequestFacts = ChatFacts & { sse?: SseWriter }

/**
 * The run of an admitted chat request, answered in its protocol: streamed
 * through the protocol's encoding as the agent emits, or collected and
 * folded into one JSON body. What the run ended with goes to the facts.
 */
export const makeChatRun = Effect.gen(function*() {
  const agent = yield* Agent
  const observer = yield* requestObserver

  return (
    protocol: ChatProtocol,
    res: ServerResponse,
    plan: RunPlan,
    headers: Record<string, string>,
    facts: RequestFacts,
    log: RequestLog
  ) =>
    Effect.gen(function*() {
      log.model = `${plan.run.provider}/${plan.run.model.modelId}`
      observer.running(log, plan.stream ? "stream" : "json")
      if (!plan.stream) {
        const collected = yield* agent.collect(plan.run)
        facts.summary = collected.summary
        log.ran(collected.summary)
        return writeJson(res, 200, protocol.collect(collected, plan), headers)
      }
      const sse = facts.sse = new SseWriter(res, headers, protocol.stream)
      facts.summary = yield* agent.run(plan.run, {
        emit: sse.emit,
        failed: (failure) => {
          log.outcome = failure._tag
          sse.failed(failure)
        }
      }, sse)
      log.ran(facts.summary)
      sse.end()
    })
})
