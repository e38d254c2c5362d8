import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider"
import { Effect, Option } from "effect"
import type { InvalidHistory } from "../domain/requestErrors.ts"
import type { ProviderCooldowns } from "../models/ProviderCooldowns.ts"
import { type ProviderFailure, ProviderUnavailable } from "../models/ProviderFailure.ts"
import type { ClientFetch } from "../tools/outbound/fetchForClient.ts"
import type { AgentRun } from "./AgentRun.ts"
import { type ClientPace, keepsUp, untilCaughtUp } from "./ClientPace.ts"
import { conversation, initialPrompt, plainStart, type PromptTarget, stepMessages } from "./history.ts"
import type { UnfetchablePart } from "./partDownloads.ts"
import { resumeApprovals } from "./resumeApprovals.ts"
import type { RunSink } from "./RunSink.ts"
import { RunState } from "./RunState.ts"
import type { RunSummary } from "./RunSummary.ts"
import { runTools, type ToolOutcome } from "./runTools.ts"
import { meteredTokens, nextStepFits } from "./stepBudget.ts"
import { streamStep } from "./stepCall.ts"
import { StepTranslator } from "./StepTranslator.ts"
import { withinTimeLimit } from "./timeLimit.ts"
import type { ValidToolCall } from "./toolInput.ts"
import { makeToolSet, type ToolSet } from "./toolSet.ts"

const TIMEOUT_ERROR_TEXT = "Error: the request time limit was reached before this tool call completed"
const PROVIDER_FAILED_TEXT = "Error: the model's answer broke off before this tool call completed"
const STOPPED_TEXT = "Error: the run was stopped before this tool call completed"

/** What a run uses beyond itself: the outbound fetch for part URLs, and a route's shared cooldowns (absent: none). */
export interface AgentEnv {
  readonly fetch: ClientFetch
  readonly cooldowns?: ProviderCooldowns["Service"] | undefined
}

/** How the steps ended when no limit of time cut them short. */
type StepsEnd = "done" | "step-limit" | "approval-required" | "budget"

const AUTO = { type: "auto" } as const

const callOptions = (
  run: AgentRun,
  tools: ToolSet,
  prompt: LanguageModelV4Prompt,
  step: number
): LanguageModelV4CallOptions => ({
  ...run.settings,
  prompt,
  ...(tools.definitions === undefined
    ? {}
    : { tools: tools.definitions, toolChoice: step === 1 ? run.toolChoice ?? AUTO : AUTO }),
  ...(run.maxOutputTokens === undefined ? {} : { maxOutputTokens: run.maxOutputTokens })
})

/**
 * One model call per step; after a step that called tools, run them, add the
 * step to the prompt and call the model again. Ends after a step without
 * tool calls, or after `maxSteps` model calls.
 */
const runSteps = Effect.fnUntraced(function*(
  run: AgentRun,
  state: RunState,
  tools: ToolSet,
  target: PromptTarget,
  firstPrompt: LanguageModelV4Prompt,
  pace: ClientPace,
  env: AgentEnv
) {
  let prompt = firstPrompt
  const firstChunkTimeoutMs = run.route?.firstChunkTimeoutMs
  let targets = run.route?.targets ??
    [{ id: run.meter?.model ?? `${run.provider}/${run.model.modelId}`, provider: run.provider, model: run.model }]
  for (let step = 1;; step++) {
    // The next step waits for a client that is behind, as its model answer would.
    yield* untilCaughtUp(pace)
    const tokensBefore = run.budget === undefined ? 0 : meteredTokens(run.meter)
    run.meter?.startStep()
    const options = callOptions(run, tools, prompt, step)
    const newTranslator = () => new StepTranslator(state, tools, run.approval)
    const { served, translator } = yield* streamStep(
      { targets, firstChunkTimeoutMs },
      options,
      state,
      newTranslator,
      pace,
      run.meter,
      env.cooldowns
    )
    // The target that answered takes the next steps first: the others just failed, or cool down.
    if (served !== targets[0]) targets = [served, ...targets.filter((target) => target !== served)]

    const calls = translator.calls.filter((call) => call.providerExecuted !== true && call.client !== true)
    const outcomes = new Map<string, ToolOutcome>()
    for (const call of calls) {
      const refusal = call.valid ? translator.refused.get(call.toolCallId) : call.errorText
      if (refusal === undefined) continue
      outcomes.set(call.toolCallId, { ok: false, errorText: refusal })
      if (call.valid && call.client !== true) state.toolError(call, refusal)
    }
    // As the AI SDK: tools run only when the model finished its turn normally.
    const valid = calls.filter((call): call is ValidToolCall =>
      call.valid && !translator.awaiting.has(call.toolCallId) && !outcomes.has(call.toolCallId)
    )
    if (valid.length > 0 && (translator.finishReason === "stop" || translator.finishReason === "tool-calls")) {
      for (const [id, outcome] of yield* runTools(state, valid, run, pace)) outcomes.set(id, outcome)
    }
    state.endStep()
    // As streamText: a call waiting for a person ends the run; the next request carries the answer.
    if (translator.awaiting.size > 0) return "approval-required" satisfies StepsEnd

    // A call the client runs ends the run: the client answers it in its next request.
    const answered = calls.length > 0 && outcomes.size === calls.length && !translator.forClient
    if (!answered || translator.finishReason === "interrupted") return "done" satisfies StepsEnd
    if (step >= run.maxSteps) return "step-limit" satisfies StepsEnd
    if (run.budget !== undefined && !(yield* nextStepFits(run.budget, run.meter, tokensBefore, outcomes))) {
      return "budget" satisfies StepsEnd
    }
    const next = yield* Effect.promise(() => stepMessages(target, translator.content, outcomes))
    prompt = prompt.concat(next)
  }
})

// A run a client may stop races its stop; the loser is interrupted (its model call and tools aborted) and awaited.
const stoppable =
  (stop: Effect.Effect<void> | undefined) =>
  <A, E, R>(steps: Effect.Effect<A, E, R>): Effect.Effect<A | "stopped", E, R> =>
    stop === undefined ? steps : Effect.raceFirst(steps, Effect.as(stop, "stopped" as const))

// The run from its first prompt, which a plain conversation gets without converting its history.
const fromFirstPrompt = Effect.fnUntraced(function*(
  run: AgentRun,
  state: RunState,
  tools: ToolSet,
  env: AgentEnv,
  pace: ClientPace
) {
  const { fetch } = env
  const plain = run.resume === undefined ? plainStart(run.model, run.system, run.messages, fetch) : undefined
  if (plain !== undefined) return yield* runSteps(run, state, tools, plain.target, plain.prompt, pace, env)
  const history = yield* conversation(run.model, run.provider, run.messages, fetch, run.tools)
  const resumed = yield* resumeApprovals(run, state, tools, pace)
  const prompt = yield* initialPrompt(history.target, run.provider, run.system, history.messages.concat(resumed))
  return yield* runSteps(run, state, tools, history.target, prompt, pace, env)
})

// Untraced: a span costs ~20 µs a call, and this runs on every request (BENCHMARKS.md).
const runToEnd = Effect.fnUntraced(function*(
  run: AgentRun,
  state: RunState,
  tools: ToolSet,
  env: AgentEnv,
  pace: ClientPace
) {
  const ended = yield* fromFirstPrompt(run, state, tools, env, pace).pipe(
    withinTimeLimit(run.timeout),
    stoppable(run.stop)
  )

  if (ended === "stopped") {
    // Stopped before the model answered: the stream still says so, as a valid message.
    state.begin()
    state.interrupt(STOPPED_TEXT)
    return state.finish("stopped")
  }
  if (Option.isSome(ended)) return state.finish(ended.value === "done" ? undefined : ended.value)
  if (!state.started) {
    return yield* new ProviderUnavailable({
      provider: run.provider,
      status: 504,
      message: `${run.provider} did not answer within the request time limit`
    })
  }
  state.interrupt(TIMEOUT_ERROR_TEXT)
  return state.finish("timeout")
})

/**
 * Runs a conversation to its end, emitting run events (`RunEvent`), and
 * returns its summary. A limit ends the run as a structured interruption:
 * the events so far stay valid and the `finish` event's summary says
 * `finished: false` with the reason. URLs in the conversation are fetched
 * with `env.fetch`. A streamed run keeps to its client's `pace`. Given a
 * sink that `streams`, a provider failure after the first event ends the
 * stream too: the open parts end, an `error` event names the failure, and
 * `finish` has the reason `error` (docs/DESIGN.md §3.3); otherwise (an
 * answer sent in one piece, which can still be an HTTP error) the run fails. What the
 * run's tools kept for it alone (`ToolExecution.runScope`) is closed before
 * it returns. A run with a budget (governance reserved its first call,
 * `chat/Governance.ts`) reserves each further call between steps.
 */
export const runAgent = (
  run: AgentRun,
  sink: RunSink,
  env: AgentEnv,
  pace: ClientPace = keepsUp
): Effect.Effect<RunSummary, ProviderFailure | InvalidHistory | UnfetchablePart> =>
  Effect.suspend(() => {
    const state = new RunState(sink.emit, run.meter, run.resume?.messageId, sink.resetsStep === true)
    const tools = makeToolSet(run.tools, run.clientTools)
    const ran = runToEnd(run, state, tools, env, pace)
    const answered = sink.streams === true ? endingStream(state, ran) : ran
    // What the tools kept for the run alone closes after its last chunk, however the run ended (the browser's
    // pages would hold a Chromium context for minutes); a run without tools (a plain chat) adds nothing here.
    const runScope = tools.runScope
    return runScope === undefined ? answered : Effect.onExit(answered, (exit) => runScope.close(exit))
  })

// A streamed run that broke after its first event ends its stream itself.
const endingStream = (
  state: RunState,
  summary: Effect.Effect<RunSummary, ProviderFailure | InvalidHistory | UnfetchablePart>
): Effect.Effect<RunSummary, ProviderFailure | InvalidHistory | UnfetchablePart> => {
  // A stopped stream (the server shutting down, docs/DESIGN.md §8) ends its open parts; the server writes the rest.
  const stoppable = Effect.onInterrupt(
    summary,
    () => Effect.sync(() => state.started && state.interrupt(STOPPED_TEXT))
  )
  return Effect.catchIf(
    stoppable,
    (failure): failure is ProviderFailure =>
      state.started && failure._tag !== "InvalidHistory" && failure._tag !== "UnfetchablePart",
    (failure) =>
      Effect.sync(() => {
        state.breakOff(PROVIDER_FAILED_TEXT, failure)
        return state.finish()
      })
  )
}
