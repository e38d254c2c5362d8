import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider"
import { Effect } from "effect"
import type { ModelTarget } from "../models/ModelRoute.ts"
import { openPartStream, type PartStreaming, streamsParts } from "../models/PartStreaming.ts"
import {
  type ProviderFailure,
  ProviderUnavailable,
  retryAfterOf,
  toProviderFailure
} from "../models/ProviderFailure.ts"
import { type RetryPolicy, retrySchedule, type RetryVerdict } from "../net/retry.ts"
import { observeModelCall } from "../observability/observeModelCall.ts"
import type { ClientPace } from "./ClientPace.ts"
import type { RunMeter } from "./RunMeter.ts"
import type { RunState } from "./RunState.ts"
import { StepFeed, STOPPED } from "./StepFeed.ts"
import type { StepTranslator } from "./StepTranslator.ts"

/** Transient failures (network, 429, 5xx) are retried twice, 1 s then 2 s, or after a Retry-After up to 10 s. */
const MODEL_RETRIES: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 4_000,
  jitter: false,
  maxRetryAfterMs: 10_000
}

class NoOutput extends Error {
  override readonly name = "NoOutput"
  constructor() {
    super("the model stream ended without any output")
  }
}

// Any LanguageModelV4: its stream read part by part, a promise per part; not read on while the client is behind.
const readStream = async (
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions,
  feed: StepFeed,
  pace: ClientPace,
  signal: AbortSignal
) => {
  const reader = (await model.doStream(options)).stream.getReader()
  const cancel = () => void reader.cancel(signal.reason).catch(() => undefined)
  signal.addEventListener("abort", cancel, { once: true })
  try {
    // Aborted while the call was being made: the listener will not fire, so cancel here.
    if (signal.aborted) return cancel()
    for (;;) {
      const next = await reader.read()
      if (signal.aborted || next.done) return
      feed.push(next.value)
      if (feed.failure !== undefined) return void reader.cancel(STOPPED).catch(() => undefined)
      if (pace.behind) await pace.caughtUp()
    }
  } finally {
    signal.removeEventListener("abort", cancel)
  }
}

/**
 * A model with the PartStreaming capability hands over the parts of each
 * network read at once, and gives a client that takes its answer in one
 * piece a whole answer instead of a stream. When the client falls behind,
 * the network reading pauses until it has caught up: the parts of the read
 * at hand still go out, and the provider's answer waits in the connection's
 * buffers.
 */
const readParts = async (
  model: LanguageModelV4 & PartStreaming,
  options: LanguageModelV4CallOptions,
  feed: StepFeed,
  pace: ClientPace
) => {
  const stream = await model[openPartStream](options, pace.inOnePiece === true ? "whole" : "streamed")
  feed.reading = stream
  let paused = false
  const resume = () => {
    paused = false
    stream.resume()
  }
  return stream.read((part) => {
    feed.push(part)
    if (!pace.behind || paused) return
    paused = true
    stream.pause()
    void pace.caughtUp().then(resume)
  })
}

const SLOW = new Error("no part of the answer came within the first-chunk timeout")

/**
 * One model call, read to its end or to its failure: the feed says which,
 * and whether the step had begun. It never rejects. Aborting `signal`
 * aborts the request and stops the reading; so does `firstChunkMs` passing
 * before the answer's first part.
 */
const attempt = async (
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions,
  feed: StepFeed,
  pace: ClientPace,
  signal: AbortSignal,
  firstChunkMs: number | undefined
): Promise<StepFeed> => {
  const slow = firstChunkMs === undefined ? undefined : new AbortController()
  const callSignal = slow === undefined ? signal : AbortSignal.any([signal, slow.signal])
  const timer = slow === undefined ? undefined : setTimeout(() => {
    if (feed.begun || feed.failure !== undefined) return
    feed.slow = true
    feed.failure = { error: SLOW }
    slow.abort(SLOW)
    feed.stop()
  }, firstChunkMs)
  const call = { ...options, abortSignal: callSignal }
  try {
    await (streamsParts(model) ? readParts(model, call, feed, pace) : readStream(model, call, feed, pace, callSignal))
  } catch (error) {
    // Stopping after an error part rejects the read; the error part is the failure.
    feed.failure ??= { error }
  } finally {
    clearTimeout(timer)
  }
  if (feed.failure === undefined && !feed.begun && !signal.aborted) feed.failure = { error: new NoOutput() }
  return feed
}

/** A failed attempt, as the retry schedule and a route weigh it. */
export interface AttemptFailure {
  readonly failure: ProviderFailure
  /** The attempt's chunks reached the client: it cannot be taken back, so it is not retried. */
  readonly begun: boolean
  /** It sent nothing within the route's first-chunk timeout: the next target is tried rather than it again. */
  readonly slow: boolean
  readonly retryAfterMs: number | undefined
}

const verdictOf = (failed: AttemptFailure): RetryVerdict => ({
  retryable: !failed.begun && !failed.slow && failed.failure._tag === "ProviderUnavailable",
  retryAfterMs: failed.retryAfterMs
})

const retries = retrySchedule(MODEL_RETRIES, verdictOf)

const oneAttempt = (
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions,
  feed: StepFeed,
  provider: string,
  pace: ClientPace,
  firstChunkMs: number | undefined
) =>
  Effect.promise((signal) => attempt(model, options, feed, pace, signal, firstChunkMs)).pipe(
    Effect.flatMap((fed) =>
      fed.failure === undefined ? Effect.void : Effect.fail<AttemptFailure>({
        failure: fed.slow
          ? new ProviderUnavailable({
            provider,
            message: `${provider} sent no part of its answer within ${firstChunkMs! / 1000} s`
          })
          : toProviderFailure(provider, fed.failure.error),
        begun: fed.begun,
        slow: fed.slow,
        retryAfterMs: retryAfterOf(fed.failure.error)
      })
    )
  )

const reportOf = (feed: StepFeed, translator: StepTranslator) => ({
  tokens: feed.finish === undefined
    ? undefined
    : { input: feed.finish.usage.inputTokens.total, output: feed.finish.usage.outputTokens.total },
  firstPartAt: feed.firstPartAt,
  finishReason: feed.finish?.finishReason.unified,
  output: () => translator.content
})

/** How a step's call goes to one target: the meter counting, and a first-chunk timeout when another target waits. */
export interface TargetCall {
  readonly meter: RunMeter | undefined
  readonly firstChunkMs: number | undefined
}

/**
 * Streams one step's model call to `target` into `translator`, retrying
 * transient failures with backoff or a short Retry-After, never once the
 * call has streamed content nor after a first-chunk timeout; reading waits
 * while the client is behind (`pace`). Interruption aborts the request.
 * Fails with the last attempt's failure, for a route to weigh.
 */
export const streamToTarget = (
  target: ModelTarget,
  options: LanguageModelV4CallOptions,
  state: RunState,
  translator: StepTranslator,
  pace: ClientPace,
  call: TargetCall
): Effect.Effect<void, AttemptFailure> =>
  Effect.suspend(() => {
    let attempts = 0
    return Effect.suspend(() => {
      const feed = new StepFeed(state, translator, call.meter)
      call.meter?.attempting(target.id)
      const { model, provider } = target
      const facts = { provider, model: model.modelId, attempt: ++attempts, input: () => options.prompt }
      return observeModelCall(
        facts,
        () => reportOf(feed, translator),
        oneAttempt(model, options, feed, provider, pace, call.firstChunkMs)
      )
    }).pipe(Effect.retry(retries))
  })
