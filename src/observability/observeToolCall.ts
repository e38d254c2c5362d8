import { Effect } from "effect"
import type { Protocol } from "../domain/protocols.ts"
import { Metrics } from "./GatewayMetrics.ts"
import { annotateSpan, traced, Tracing } from "./Tracing.ts"

/** One tool call as it is run: the arguments go on the span only with `PARLEY_TRACE_CONTENT=true`. */
export interface ToolCallFacts {
  readonly tool: string
  readonly callId: string
  readonly input: () => unknown
  /** The protocol the call came in by, when it came alone (`mcp`); a run's calls sit under their request's span. */
  readonly protocol?: Protocol
}

/**
 * One tool call observed: an `execute_tool {tool}` span with the GenAI
 * attributes (when traces are on) and its metrics (calls by outcome, duration).
 */
export const observeToolCall = <A, E, R>(facts: ToolCallFacts, run: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) => {
    const metrics = fiber.getRef(Metrics)
    const tracing = fiber.getRef(Tracing)
    const startedAt = performance.now()
    const ended = Effect.onExit(run, (exit) => {
      metrics.toolCall(facts.tool, exit._tag === "Success" ? "ok" : "error", (performance.now() - startedAt) / 1000)
      return annotateSpan(tracing, () => ({
        ...(exit._tag === "Success" ? {} : { "error.type": "ToolFailure" }),
        ...(tracing.content && exit._tag === "Success" ? { "gen_ai.tool.call.result": JSON.stringify(exit.value) } : {})
      }))
    })
    return traced(tracing, ended, `execute_tool ${facts.tool}`, () => ({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": facts.tool,
      "gen_ai.tool.call.id": facts.callId,
      ...(facts.protocol === undefined ? {} : { "parley.protocol": facts.protocol }),
      ...(tracing.content ? { "gen_ai.tool.call.arguments": JSON.stringify(facts.input()) } : {})
    }))
  })
