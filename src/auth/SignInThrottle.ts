import { Clock, Context, Duration, Effect, Layer, Redacted } from "effect"
import { createHmac } from "node:crypto"
import { configuredFailureCounters } from "../store/configuredFailureCounters.ts"
import { FailureCounters } from "../store/FailureCounters.ts"
import { SecretKey } from "./SecretKey.ts"

export interface ThrottleOptions {
  /** Failures allowed before sign-ins slow down (default 3). */
  readonly freeFailures?: number | undefined
  /** Wait after the first failure beyond those; doubles with each further one (default 500 ms). */
  readonly baseDelayMs?: number | undefined
  /** The longest wait (default 10 s). */
  readonly maxDelayMs?: number | undefined
}

/** One sign-in attempt as the throttle sees it. */
export interface Attempt {
  readonly email: string
  readonly address: string
}

// A quiet quarter hour forgives earlier failures.
const FORGET_AFTER_MS = 15 * 60_000

/**
 * Slows failed console sign-ins (docs/DESIGN.md §6), per email and per
 * client address, so guessing passwords costs time and one address cannot
 * try many emails quickly. The counts are shared by every instance
 * (`FailureCounters`), so spreading guesses over instances gains nothing.
 * They are stored under an HMAC (`PARLEY_SECRET_KEY`) of the email or
 * address: a leaked store names no one.
 */
export class SignInThrottle extends Context.Service<SignInThrottle, {
  /** How long the attempt waits before its password is checked. */
  readonly delayFor: (attempt: Attempt) => Effect.Effect<Duration.Duration>
  readonly failed: (attempt: Attempt) => Effect.Effect<void>
  /**
   * Forgets the failures of the attempt's email; its address keeps its
   * count (failures on any email) until it has been quiet long enough.
   */
  readonly succeeded: (attempt: Attempt) => Effect.Effect<void>
}>()("parley/auth/SignInThrottle") {
  static readonly make = (options: ThrottleOptions) =>
    Effect.gen(function*() {
      const counters = yield* FailureCounters
      const key = Redacted.value(yield* SecretKey)
      const free = options.freeFailures ?? 3
      const base = options.baseDelayMs ?? 500
      const max = options.maxDelayMs ?? 10_000
      const counter = (name: string) => createHmac("sha256", key).update(`sign-in:${name}`).digest("hex")
      const emailCounter = (attempt: Attempt) => counter(`email:${attempt.email.trim().toLowerCase()}`)
      const countersOf = (attempt: Attempt) => [emailCounter(attempt), counter(`address:${attempt.address}`)]
      return SignInThrottle.of({
        delayFor: (attempt) =>
          Effect.gen(function*() {
            const most = yield* counters.most(countersOf(attempt), FORGET_AFTER_MS, yield* Clock.currentTimeMillis)
            if (most < free) return Duration.zero
            return Duration.millis(Math.min(base * 2 ** (most - free), max))
          }),
        failed: (attempt) =>
          Effect.flatMap(
            Clock.currentTimeMillis,
            (now) => counters.add(countersOf(attempt), FORGET_AFTER_MS, now)
          ),
        // Only the email's: anyone with an account could otherwise wipe the address's count between guesses.
        succeeded: (attempt) => counters.clear([emailCounter(attempt)])
      })
    })

  /** Counts in Redis when `REDIS_URL` is set, else in the SQL store. */
  static readonly layerWith = (options: ThrottleOptions) =>
    Layer.provide(Layer.effect(SignInThrottle, SignInThrottle.make(options)), configuredFailureCounters)

  static readonly layer = SignInThrottle.layerWith({})
}
