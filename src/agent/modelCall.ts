import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { Effect } from "effect"
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

const read = async (
  reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>,
  committed: boolean
): Promise<ReadableStreamReadResult<LanguageModelV4StreamPart>> => {
  try {
    return await reader.read()
  } catch (error) {
    throw new AttemptFailure(error, committed)
  }
}

/**
 * One model call, read to its end. Parts are held back until the first part
 * of the answer, then the step begins and every part goes through the
 * translator. Aborting `signal` aborts the request and stops the reading.
 */
const attempt = async (
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions,
  state: RunState,
  translator: StepTranslator,
  signal: AbortSignal
): Promise<void> => {
  let result
  try {
    result = await model.doStream({ ...options, abortSignal: signal })
  } catch (error) {
    throw new AttemptFailure(error, false)
  }
  const reader = result.stream.getReader()
  const cancel = () => void reader.cancel(signal.reason).catch(() => undefined)
  signal.addEventListener("abort", cancel, { once: true })
  if (signal.aborted) return cancel()
  try {
    const early: Array<LanguageModelV4StreamPart> = []
    for (;;) {
      const next = await read(reader, false)
      if (signal.aborted) return
      if (next.done) throw new AttemptFailure(new NoOutput(), false)
      if (next.value.type === "error") throw new AttemptFailure(next.value.error, false)
      early.push(next.value)
      if (isAnswer(next.value)) break
    }
    state.beginStep()
    try {
      for (const part of early) translator.push(part)
      for (;;) {
        const next = await read(reader, true)
        if (signal.aborted || next.done) return
        if (next.value.type === "error") throw new AttemptFailure(next.value.error, true)
        translator.push(next.value)
      }
    } catch (error) {
      throw error instanceof AttemptFailure ? error : new AttemptFailure(error, true)
    }
  } finally {
    signal.removeEventListener("abort", cancel)
  }
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
