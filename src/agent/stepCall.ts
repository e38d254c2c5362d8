import type { LanguageModelV4CallOptions } from "@ai-sdk/provider"
import { Effect } from "effect"
import type { ModelTarget } from "../models/ModelRoute.ts"
import type { ProviderCooldowns } from "../models/ProviderCooldowns.ts"
import type { ClientPace } from "./ClientPace.ts"
import { type AttemptFailure, streamToTarget } from "./modelCall.ts"
import type { RunMeter } from "./RunMeter.ts"
import type { RunState } from "./RunState.ts"
import type { StepTranslator } from "./StepTranslator.ts"

/** Which targets a step may go to, in order, and what each but the last gets to start its answer. */
export interface StepTargets {
  readonly targets: ReadonlyArray<ModelTarget>
  readonly firstChunkTimeoutMs?: number | undefined
}

/**
 * Whether a route moves on after `failed`: a transient failure (unreachable,
 * 429, 5xx, silent) the target's own retries did not overcome, before the
 * step's first chunk, or after it where the chunks can be taken back.
 */
const movesOn = (failed: AttemptFailure, state: RunState): boolean =>
  failed.failure._tag === "ProviderUnavailable" && (!failed.begun || state.resetsStep)

/**
 * One step's model call over a route's targets (docs/DESIGN.md §15): each
 * target with its own retries (`streamToTarget`), the next one when it
 * fails in a way another provider may not. A step that broke off after
 * its first chunk is retried from scratch on a fresh translator after
 * `reset-step`. A model that is no route is its own one target. A route's
 * providers that keep failing are tried last (`ProviderCooldowns`). Gives
 * the translator that took the answer and the target that served.
 */
export const streamStep = Effect.fnUntraced(function*(
  step: StepTargets,
  options: LanguageModelV4CallOptions,
  state: RunState,
  newTranslator: () => StepTranslator,
  pace: ClientPace,
  meter: RunMeter | undefined,
  cooldowns: ProviderCooldowns["Service"] | undefined
) {
  // A model that is no route has nowhere else to go: no cooldown is kept for it.
  const cooling = cooldowns === undefined || step.targets.length < 2 ? undefined : cooldowns
  const ordered = cooling === undefined
    ? { targets: step.targets, failing: new Set<string>() }
    : yield* cooling.order(step.targets)
  const { targets } = ordered
  const last = targets.length - 1
  const from = (
    index: number,
    translator: StepTranslator
  ): Effect.Effect<{ readonly translator: StepTranslator; readonly served: ModelTarget }, AttemptFailure> =>
    streamToTarget(targets[index]!, options, state, translator, pace, {
      meter,
      // The last target is waited for as long as its provider's timeouts allow: no one else would answer.
      firstChunkMs: index < last ? step.firstChunkTimeoutMs : undefined
    }).pipe(
      Effect.as({ translator, served: targets[index]! }),
      Effect.tapError((failed) =>
        cooling === undefined || failed.failure._tag !== "ProviderUnavailable"
          ? Effect.void
          : cooling.failed(targets[index]!.provider)
      ),
      Effect.catch((failed) => {
        if (index === last || !movesOn(failed, state)) return Effect.fail(failed)
        if (!failed.begun) return from(index + 1, translator)
        state.resetStep()
        return from(index + 1, newTranslator())
      })
    )
  const done = yield* Effect.mapError(from(0, newTranslator()), (failed) => failed.failure)
  if (cooling !== undefined && ordered.failing.has(done.served.provider)) {
    yield* cooling.answered(done.served.provider)
  }
  return done
})
