import { Duration } from "effect"

export interface ThrottleOptions {
  /** Failures allowed before sign-ins slow down (default 3). */
  readonly freeFailures?: number | undefined
  /** Wait after the first failure beyond those; doubles with each further one (default 500 ms). */
  readonly baseDelayMs?: number | undefined
  /** The longest wait (default 10 s). */
  readonly maxDelayMs?: number | undefined
}

// A quiet quarter hour forgives earlier failures.
const FORGET_AFTER_MS = 15 * 60_000
const CAPACITY = 10_000

/**
 * Slows failed console sign-ins (docs/DESIGN.md §6), per email and per
 * client address, so guessing passwords costs time and one address cannot
 * try many emails quickly. Per instance and in memory: bounded, and the
 * oldest entry goes first.
 */
export class SignInThrottle {
  readonly #failures = new Map<string, { count: number; last: number }>()
  readonly #free: number
  readonly #base: number
  readonly #max: number

  constructor(options: ThrottleOptions) {
    this.#free = options.freeFailures ?? 3
    this.#base = options.baseDelayMs ?? 500
    this.#max = options.maxDelayMs ?? 10_000
  }

  /** How long an attempt under these keys waits before its password is checked. */
  delayFor(keys: ReadonlyArray<string>, now: number): Duration.Duration {
    let worst = 0
    for (const key of keys) {
      const entry = this.#failures.get(key)
      if (entry === undefined) continue
      if (now - entry.last > FORGET_AFTER_MS) {
        this.#failures.delete(key)
        continue
      }
      worst = Math.max(worst, entry.count)
    }
    if (worst < this.#free) return Duration.zero
    return Duration.millis(Math.min(this.#base * 2 ** (worst - this.#free), this.#max))
  }

  failed(keys: ReadonlyArray<string>, now: number): void {
    for (const key of keys) {
      const count = (this.#failures.get(key)?.count ?? 0) + 1
      this.#failures.delete(key)
      if (this.#failures.size >= CAPACITY) this.#failures.delete(this.#failures.keys().next().value!)
      this.#failures.set(key, { count, last: now })
    }
  }

  succeeded(keys: ReadonlyArray<string>): void {
    for (const key of keys) this.#failures.delete(key)
  }
}
