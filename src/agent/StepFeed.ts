import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"
import type { RunMeter } from "./RunMeter.ts"
import type { RunState } from "./RunState.ts"
import type { StepTranslator } from "./StepTranslator.ts"

// Parts that carry the answer; before the first one nothing is sent, so a failure stays retryable.
const isAnswer = (part: LanguageModelV4StreamPart): boolean =>
  part.type !== "stream-start" && part.type !== "response-metadata" && part.type !== "raw" &&
  part.type !== "ping" && part.type !== "error"

/** Why a reading stopped: the model's answer failed (an error part, or nothing in time). */
export const STOPPED = new Error("the model's answer failed; reading stopped")

/**
 * Where one attempt's parts go. They are held back until the first part of
 * the answer, then the step begins and every part goes through the
 * translator. An error part is recorded as the attempt's failure and stops
 * the reading; `begun` tells whether the failure is still retryable.
 */
export class StepFeed {
  begun = false
  /** No part of the answer came within the route's first-chunk timeout. */
  slow = false
  /** Why the attempt failed, once it has; nothing is taken after it. */
  failure: { readonly error: unknown } | undefined = undefined
  /**
   * What reads the answer, which `stop` cancels; set by whoever reads. An
   * object, not a closure: a closure assigned to a property keeps its request
   * past two scavenges (docs/DESIGN.md §12).
   */
  reading: { readonly cancel: (reason: unknown) => void } | undefined = undefined
  /** For logs, metrics and traces: when the answer began, and the `finish` part. */
  firstPartAt: number | undefined = undefined
  finish: Extract<LanguageModelV4StreamPart, { type: "finish" }> | undefined = undefined
  private readonly early: Array<LanguageModelV4StreamPart> = []
  private readonly state: RunState
  private readonly translator: StepTranslator
  private readonly meter: RunMeter | undefined

  constructor(state: RunState, translator: StepTranslator, meter: RunMeter | undefined) {
    this.state = state
    this.translator = translator
    this.meter = meter
  }

  /** Stops the reading, the answer having failed. */
  stop(): void {
    this.reading?.cancel(STOPPED)
  }

  readonly push = (part: LanguageModelV4StreamPart): void => {
    if (this.failure !== undefined) return
    if (part.type === "finish") this.finish = part
    if (part.type === "error") {
      this.failure = { error: part.error }
      return this.stop()
    }
    if (this.begun) return this.translator.push(part)
    this.early.push(part)
    if (!isAnswer(part)) return
    this.begun = true
    this.firstPartAt = performance.now()
    this.meter?.answered()
    this.state.beginStep()
    for (const early of this.early) this.translator.push(early)
  }
}
