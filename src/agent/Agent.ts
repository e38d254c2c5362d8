import type { LanguageModelV4 } from "@ai-sdk/provider"
import type { UIMessage, UIMessageChunk } from "ai"
import { Context, type Duration, Effect, Layer } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { InvalidHistory } from "../domain/requestErrors.ts"
import type { Tool } from "../tools/Tool.ts"
import { runAgent } from "./runAgent.ts"
import type { UpstreamError } from "./UpstreamError.ts"

export interface ResolvedTool {
  readonly tool: Tool
  /** `context` with `toolContext[tool.name]` merged over it. */
  readonly context: Readonly<Record<string, unknown>>
}

export interface AgentRun {
  readonly model: LanguageModelV4
  /** Names the provider in errors. */
  readonly provider: string
  readonly system: string
  /** The conversation in UIMessage form, already normalized and pruned. */
  readonly messages: ReadonlyArray<UIMessage>
  readonly tools: ReadonlyArray<ResolvedTool>
  readonly sandboxId: string | null
  readonly key: ApiKey
  /** Most model calls in one run (30 in production). */
  readonly maxSteps: number
  /** Longest run (300 s in production). */
  readonly timeout: Duration.Input
  readonly maxOutputTokens?: number | undefined
}

/** Token usage summed over steps; a field the provider never reported is absent. */
export interface Usage {
  inputTokens?: number
  outputTokens?: number
  totalTokens?: number
  reasoningTokens?: number
  cachedInputTokens?: number
}

export interface RunSummary {
  readonly usage: Usage
  readonly finished: boolean
  readonly finishReason?: "step-limit" | "timeout"
}

/**
 * The tool loop: turns a conversation into AI SDK UI message chunks, one
 * model call per step, running the tools itself. No chunk is emitted before
 * the first model call answers, so a failing first call fails the run with
 * an UpstreamError before anything was emitted. Interrupting the run aborts
 * the model call and every running tool.
 */
export class Agent extends Context.Service<Agent, {
  /**
   * Runs to the end, handing each chunk to `emit` as it is produced: a
   * streamed answer writes them straight to the socket, with no stream or
   * queue between the loop and the client (BENCHMARKS.md).
   */
  readonly run: (run: AgentRun, emit: (chunk: UIMessageChunk) => void) => Effect.Effect<void, UpstreamError | InvalidHistory>
  /** The same run with its chunks gathered in memory, for an answer sent in one piece. */
  readonly collect: (run: AgentRun) => Effect.Effect<ReadonlyArray<UIMessageChunk>, UpstreamError | InvalidHistory>
}>()("parley/agent/Agent") {
  static readonly layer = Layer.succeed(
    Agent,
    Agent.of({
      run: runAgent,
      collect: (run) =>
        Effect.suspend(() => {
          const chunks: Array<UIMessageChunk> = []
          return Effect.as(runAgent(run, (chunk) => void chunks.push(chunk)), chunks)
        })
    })
  )
}
