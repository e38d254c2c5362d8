import { Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import type { InvalidHistory } from "../domain/requestErrors.ts"
import { ProviderCooldowns } from "../models/ProviderCooldowns.ts"
import type { ProviderFailure } from "../models/ProviderFailure.ts"
import { configuredClientFetch } from "../tools/outbound/fetchForClient.ts"
import type { AgentRun } from "./AgentRun.ts"
import { type ClientPace, inOnePiece } from "./ClientPace.ts"
import type { UnfetchablePart } from "./partDownloads.ts"
import { runAgent } from "./runAgent.ts"
import type { RunEvent } from "./RunEvent.ts"
import type { RunSink } from "./RunSink.ts"
import type { RunSummary } from "./RunSummary.ts"

/** Why a run fails before its first event: the provider, the conversation, or a part's URL. */
export type RunFailure = ProviderFailure | InvalidHistory | UnfetchablePart

/** A run answered in one piece: its events and how it ended. */
export interface CollectedRun {
  readonly events: ReadonlyArray<RunEvent>
  readonly summary: RunSummary
}

/**
 * The tool loop: turns a conversation into run events (`RunEvent`), one
 * model call per step, running the tools itself. No event is emitted before
 * the first model call answers, so a failing first call fails the run with
 * a ProviderFailure before anything was emitted. Interrupting the run aborts
 * the model call and every running tool. URLs in the conversation the
 * model does not take itself are fetched through the outbound policy.
 */
export class Agent extends Context.Service<Agent, {
  /**
   * Runs to the end, handing each event to `sink` as it is produced: a
   * streamed answer writes them straight to the socket, with no stream or
   * queue between the loop and the client (BENCHMARKS.md). A sink that
   * `streams` fails it only before the first event: a provider failure after
   * it ends the stream with its open parts ended, an `error` event, and the
   * `finish` event (docs/DESIGN.md §3.3). While the client is behind (`pace`), the run waits for it.
   */
  readonly run: (run: AgentRun, sink: RunSink, pace?: ClientPace) => Effect.Effect<RunSummary, RunFailure>
  /** The same run with its events gathered in memory, for an answer sent in one piece. */
  readonly collect: (run: AgentRun) => Effect.Effect<CollectedRun, RunFailure>
}>()("parley/agent/Agent") {
  static readonly layer = Layer.effect(
    Agent,
    Effect.gen(function*() {
      const env = {
        fetch: configuredClientFetch(yield* AppConfig),
        cooldowns: Option.getOrUndefined(yield* Effect.serviceOption(ProviderCooldowns))
      }
      return Agent.of({
        run: (run, sink, pace) => runAgent(run, sink, env, pace),
        collect: (run) =>
          Effect.suspend(() => {
            const events: Array<RunEvent> = []
            // Where the current step's parts begin: a `reset-step` drops them, as a client would.
            let stepParts = 0
            const emit = (event: RunEvent) => {
              if (event.type === "reset-step") return void (events.length = stepParts)
              events.push(event)
              if (event.type === "start-step") stepParts = events.length
            }
            return Effect.map(
              runAgent(run, { emit, resetsStep: true }, env, inOnePiece),
              (summary) => ({ events, summary })
            )
          })
      })
    })
  )
}
