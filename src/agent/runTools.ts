import { getErrorMessage, type JSONValue, type LanguageModelV4 } from "@ai-sdk/provider"
import { Cause, Context, Effect, Result } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"
import { observeToolCall } from "../observability/observeToolCall.ts"
import { unmeteredUsage } from "../tools/Tool.ts"
import { type ClientPace, untilCaughtUp } from "./ClientPace.ts"
import type { RunMeter } from "./RunMeter.ts"
import type { RunState } from "./RunState.ts"
import type { ValidToolCall } from "./toolInput.ts"

/**
 * How many of one step's tool calls run at once (`PARLEY_TOOL_CONCURRENCY`,
 * default 8); the rest wait their turn. A model may ask for hundreds in one
 * step, and each may hold a sandbox's processes or a partner's connection.
 */
export const ToolConcurrency = Context.Reference<number>("parley/agent/ToolConcurrency", { defaultValue: () => 8 })

/** A tool's answer as the model will be told it. */
export type ToolOutcome =
  | { readonly ok: true; readonly output: JSONValue }
  | { readonly ok: false; readonly errorText: string }

export interface ToolRunContext {
  readonly sandboxId: string | null
  readonly key: ApiKey
  readonly model: LanguageModelV4
  readonly meter?: RunMeter | undefined
}

// A run nobody meters (tests, the bench's direct runs) drops what its tools report.

// A ToolFailure is meant for the model ("ToolFailure: …", as the AI SDK words thrown errors);
// a defect's text may hold internals, so the model and the client get a generic one.
const failureText = (call: ValidToolCall, cause: Cause.Cause<unknown>): Effect.Effect<string> => {
  const error = Cause.findError(cause)
  if (Result.isSuccess(error)) return Effect.succeed(getErrorMessage(error.success))
  return Effect.as(
    Effect.logWarning(`Tool ${call.toolName} failed unexpectedly`, cause),
    Cause.hasInterruptsOnly(cause)
      ? `Error: tool ${call.toolName} was interrupted`
      : `Error: tool ${call.toolName} failed unexpectedly`
  )
}

// Outputs travel as JSON (SSE, JSON body, the model's tool result); anything else is a defect.
const toJsonValue = (output: unknown): JSONValue => {
  const text = JSON.stringify(output)
  return text === undefined ? null : JSON.parse(text)
}

const runOne = (state: RunState, call: ValidToolCall, run: ToolRunContext, pace: ClientPace) =>
  Effect.suspend(() => {
    const controller = new AbortController()
    run.meter?.toolCalled(call.toolName)
    return call.runTool.tool.execute(call.decoded, {
      toolCallId: call.toolCallId,
      context: call.runTool.context,
      sandboxId: run.sandboxId,
      key: run.key,
      model: run.model,
      signal: controller.signal,
      reportUsage: run.meter?.toolUsage ?? unmeteredUsage,
      runScope: call.runTool.runScope.get()
    }).pipe(Effect.onInterrupt(() => Effect.sync(() => controller.abort())))
  }).pipe(
    Effect.map(toJsonValue),
    (executed) =>
      observeToolCall({ tool: call.toolName, callId: call.toolCallId, input: () => call.decoded }, executed),
    Effect.matchCauseEffect({
      // An output waits for a client that is behind, so a run never piles outputs on a slow stream.
      onSuccess: (output): Effect.Effect<ToolOutcome> =>
        Effect.map(untilCaughtUp(pace), () => {
          state.toolOutput(call, output)
          return { ok: true, output }
        }),
      onFailure: (cause) =>
        Effect.map(failureText(call, cause), (errorText): ToolOutcome => {
          state.toolError(call, errorText)
          return { ok: false, errorText }
        })
    })
  )

/**
 * Runs a step's tool calls concurrently, `ToolConcurrency` at a time; each
 * output chunk goes out as its tool finishes, once the client keeps up (`pace`). A failing tool becomes an error output, never a crash.
 * Interruption interrupts every running tool and aborts its `signal`.
 *
 * Untraced: a span costs ~20 µs a call, and this runs on every request (BENCHMARKS.md).
 */
export const runTools = Effect.fnUntraced(function*(
  state: RunState,
  calls: ReadonlyArray<ValidToolCall>,
  run: ToolRunContext,
  pace: ClientPace
) {
  const outcomes = new Map<string, ToolOutcome>()
  const concurrency = yield* ToolConcurrency
  yield* Effect.forEach(
    calls,
    (call) => Effect.map(runOne(state, call, run, pace), (outcome) => outcomes.set(call.toolCallId, outcome)),
    { concurrency, discard: true }
  )
  return outcomes
})
