import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { Effect } from "effect"
import { OpenAICompatibleChatModel } from "../models/openaiCompatible/OpenAICompatibleChatModel.ts"
import type { RunState } from "./RunState.ts"
import type { StepTranslator } from "./StepTranslator.ts"
import { retryAfterMs, toUpstreamError, type UpstreamError } from "./UpstreamError.ts"

/** Transient failures are retried this often, but only before the call streamed anything. */
const MAX_RETRIES = 2
const BACKOFF_MS = 1_000
/** A longer Retry-After is not worth waiting for inside one request. */
const SHORT_RETRY_AFTER_MS = 10_000

/** A failed attempt; `committed` once the attempt's chunks reached the client. */
class AttemptFailure {
  readonly error: unknown
  readonly committed: boolean

  constructor(error: unknown, committed: boolean) {
    this.error = error
    this.committed = committed
  }
}

class NoOutput extends Error {
  override readonly name = "NoOutput"
  constructor() {
    super("the model stream ended without any output")
  }
}

// Parts that carry the answer; before the first one nothing is sent, so a failure stays retryable.
const isAnswer = (part: LanguageModelV4StreamPart): boolean =>
  part.type !== "stream-start" && part.type !== "response-metadata" && part.type !== "raw" &&
  part.type !== "ping" && part.type !== "error"

/**
 * Where one attempt's parts go. They are held back until the first part of
 * the answer, then the step begins and every part goes through the
 * translator; `begun` tells whether a failure is still retryable.
 */
class StepFeed {
  begun = false
  private readonly early: Array<LanguageModelV4StreamPart> = []
  private readonly state: RunState
  private readonly translator: StepTranslator

  constructor(state: RunState, translator: StepTranslator) {
    this.state = state
    this.translator = translator
  }

  readonly push = (part: LanguageModelV4StreamPart): void => {
    if (part.type === "error") throw new AttemptFailure(part.error, this.begun)
    if (this.begun) return this.translator.push(part)
    this.early.push(part)
    if (!isAnswer(part)) return
    this.begun = true
    this.state.beginStep()
    for (const early of this.early) this.translator.push(early)
  }
}

// Any LanguageModelV4: its stream read part by part, a promise per part.
const readStream = async (model: LanguageModelV4, options: LanguageModelV4CallOptions, feed: StepFeed, signal: AbortSignal) => {
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
    }
  } finally {
    signal.removeEventListener("abort", cancel)
  }
}

// parley's own OpenAI-compatible model hands over the parts of each network read at once.
const readParts = async (model: OpenAICompatibleChatModel, options: LanguageModelV4CallOptions, feed: StepFeed) =>
  (await model.openStream(options)).read(feed.push)

/** One model call, read to its end. Aborting `signal` aborts the request and stops the reading. */
const attempt = async (
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions,
  state: RunState,
  translator: StepTranslator,
  signal: AbortSignal
): Promise<void> => {
  const feed = new StepFeed(state, translator)
  const call = { ...options, abortSignal: signal }
  try {
    await (model instanceof OpenAICompatibleChatModel ? readParts(model, call, feed) : readStream(model, call, feed, signal))
  } catch (error) {
    throw error instanceof AttemptFailure ? error : new AttemptFailure(error, feed.begun)
  }
  if (!feed.begun && !signal.aborted) throw new AttemptFailure(new NoOutput(), false)
}

/**
 * Streams one step's model call into `translator`, retrying transient
 * failures (network, 429, 5xx) with backoff or a short Retry-After, never
 * once the call has streamed content. Interruption aborts the request.
 */
export const streamModelCall = (
  model: LanguageModelV4,
  provider: string,
  options: LanguageModelV4CallOptions,
  state: RunState,
  translator: StepTranslator
): Effect.Effect<void, UpstreamError> => {
  const once = Effect.tryPromise({
    try: (signal) => attempt(model, options, state, translator, signal),
    catch: (error) => error instanceof AttemptFailure ? error : new AttemptFailure(error, true)
  })
  const withRetries = (retry: number): Effect.Effect<void, UpstreamError> =>
    Effect.catch(once, (failure) => {
      const error = toUpstreamError(provider, failure.error)
      if (failure.committed || !error.retryable || retry >= MAX_RETRIES) return Effect.fail(error)
      const asked = retryAfterMs(failure.error)
      if (asked !== undefined && asked > SHORT_RETRY_AFTER_MS) return Effect.fail(error)
      return Effect.sleep(asked ?? BACKOFF_MS * 2 ** retry).pipe(Effect.andThen(withRetries(retry + 1)))
    })
  return withRetries(0)
}
