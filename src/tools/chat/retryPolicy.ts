import type { RetryPolicy as SharedRetryPolicy } from "../../net/retry.ts"

/** How chat_message retries a send the partner API did not take: the shared policy, and how long one answer may take. */
export interface RetryPolicy extends SharedRetryPolicy {
  /** Longest wait for one answer. */
  readonly timeoutMs: number
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  jitter: true,
  maxRetryAfterMs: 30_000,
  timeoutMs: 10_000
}

/** Statuses that mean "not taken, try again": the idempotency key makes a retry safe either way. */
export const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500
