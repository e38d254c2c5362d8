import { Effect, Schedule } from "effect"

/**
 * The gateway's one way of retrying an outbound call: transient failures
 * only, exponential backoff, a server's Retry-After honoured when it is
 * short and the retries given up when it is not (a request's client should
 * not wait that long). Each caller says what is transient and sets the numbers.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number
  /** Backoff before retry n is `baseDelayMs · 2^(n-1)`, plus with `jitter` up to `baseDelayMs` more, at most `maxDelayMs`. */
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  readonly jitter: boolean
  /** A Retry-After longer than this ends the retries. */
  readonly maxRetryAfterMs: number
}

/** What a failed attempt says about trying again. */
export interface RetryVerdict {
  readonly retryable: boolean
  /** The delay the server asked for, when it asked. */
  readonly retryAfterMs?: number | undefined
}

/** The backoff before retry `retry` (1 for the first retry). */
export const backoffMs = (policy: RetryPolicy, retry: number, random: () => number = Math.random): number =>
  Math.min(
    policy.maxDelayMs,
    policy.baseDelayMs * 2 ** (retry - 1) + (policy.jitter ? Math.floor(random() * policy.baseDelayMs) : 0)
  )

/** Whether the server asked for a longer wait than the policy takes. */
export const asksTooLong = (policy: RetryPolicy, verdict: RetryVerdict): boolean =>
  verdict.retryAfterMs !== undefined && verdict.retryAfterMs > policy.maxRetryAfterMs

/**
 * The Schedule for `Effect.retry`: recurs while the failure is retryable,
 * attempts remain and any Retry-After is short; waits the Retry-After, else the backoff.
 */
export const retrySchedule = <E>(policy: RetryPolicy, verdictOf: (error: E) => RetryVerdict) =>
  Schedule.recurs(policy.maxAttempts - 1).pipe(
    Schedule.setInputType<E>(),
    Schedule.while(({ input }) => {
      const verdict = verdictOf(input)
      return verdict.retryable && !asksTooLong(policy, verdict)
    }),
    Schedule.modifyDelay(({ attempt, input }) =>
      Effect.succeed(verdictOf(input).retryAfterMs ?? backoffMs(policy, attempt))
    )
  )

/** Response headers by lower-case name: a fetch `Headers`, or the plain object the AI SDK reports. */
export type HeaderSource = Headers | Readonly<Record<string, string | undefined>>

const header = (headers: HeaderSource, name: string): string | undefined => {
  const text = (headers instanceof Headers ? headers.get(name) : headers[name])?.trim()
  return text === undefined || text === "" ? undefined : text
}

const NUMBER = /^\d+(?:\.\d+)?$/

/**
 * The delay a response asks for before a retry, in ms: `retry-after-ms`,
 * else `Retry-After` as seconds or as an HTTP date; undefined when absent or unreadable.
 */
export const retryAfterMs = (headers: HeaderSource, now: number = Date.now()): number | undefined => {
  const ms = header(headers, "retry-after-ms")
  if (ms !== undefined && NUMBER.test(ms)) return Number(ms)
  const after = header(headers, "retry-after")
  if (after === undefined) return undefined
  if (NUMBER.test(after)) return Number(after) * 1000
  // An HTTP date names its weekday; a bare "-1" is neither form.
  const date = /[a-z]/i.test(after) ? Date.parse(after) : Number.NaN
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
