import type { UIMessageChunk } from "ai"
import { Context, Effect, Layer } from "effect"
import type { InvalidHistory } from "../domain/requestErrors.ts"
import type { ProviderFailure } from "../models/ProviderFailure.ts"
import type { AgentRun } from "./AgentRun.ts"
import type { ClientPace } from "./ClientPace.ts"
import { runAgent } from "./runAgent.ts"
import type { RunSummary } from "./RunSummary.ts"

/** A run answered in one piece: its chunks and how it ended. */
export interface CollectedRun {
  readonly chunks: ReadonlyArray<UIMessageChunk>
  readonly summary: RunSummary
}

/**
 * The tool loop: turns a conversation into AI SDK UI message chunks, one
 * model call per step, running the tools itself. No chunk is emitted before
 * the first model call answers, so a failing first call fails the run with
 * a ProviderFailure before anything was emitted. Interrupting the run aborts
 * the model call and every running tool.
 */
export class Agent extends Context.Service<Agent, {
  /**
   * Runs to the end, handing each chunk to `emit` as it is produced: a
   * streamed answer writes them straight to the socket, with no stream or
   * queue between the loop and the client (BENCHMARKS.md). While the client
   * is behind (`pace`), the run waits for it.
   */
  readonly run: (
    run: AgentRun,
    emit: (chunk: UIMessageChunk) => void,
    pace?: ClientPace
  ) => Effect.Effect<RunSummary, ProviderFailure | InvalidHistory>
  /** The same run with its chunks gathered in memory, for an answer sent in one piece. */
  readonly collect: (run: AgentRun) => Effect.Effect<CollectedRun, ProviderFailure | InvalidHistory>
}>()("parley/agent/Agent") {
  static readonly layer = Layer.succeed(
    Agent,
    Agent.of({
      run: runAgent,
      collect: (run) =>
        Effect.suspend(() => {
          const chunks: Array<UIMessageChunk> = []
          return Effect.map(runAgent(run, (chunk) => void chunks.push(chunk)), (summary) => ({ chunks, summary }))
        })
    })
  )
}
