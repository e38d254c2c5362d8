/** How chat_message retries a send the partner API did not take. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number
  /** Backoff before retry n is `baseDelayMs · 2^(n-1)` plus jitter, at most `maxDelayMs`. */
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  /** A `Retry-After` longer than this ends the retries: the tool fails and says when to try again. */
  readonly maxRetryAfterMs: number
  /** Longest wait for one answer. */
  readonly timeoutMs: number
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 30_000,
  timeoutMs: 10_000
}

/** Statuses that mean "not taken, try again": the idempotency key makes a retry safe either way. */
export const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export const retryAfterMs = (header: string | null, now: number): number | undefined => {
  if (header === null || header.trim() === "") return undefined
  const text = header.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  // An HTTP date names its weekday; a bare "-1" or "1.5" is neither form.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The backoff before retry `retry` (1 for the first retry). */
export const backoffMs = (policy: RetryPolicy, retry: number, random: () => number = Math.random): number =>
  Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1) + Math.floor(random() * policy.baseDelayMs))
