import { assert, describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { backoffMs, retryAfterMs, type RetryPolicy, retrySchedule, type RetryVerdict } from "../../src/net/retry.ts"

const policy: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  jitter: false,
  maxRetryAfterMs: 10_000
}

describe("retryAfterMs", () => {
  const now = Date.parse("2030-01-01T00:00:00Z")

  it("reads retry-after-ms, then Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs({ "retry-after-ms": "250", "retry-after": "9" }, now)).toBe(250)
    expect(retryAfterMs({ "retry-after": "3" }, now)).toBe(3_000)
    expect(retryAfterMs({ "retry-after": "0.005" }, now)).toBe(5)
    expect(retryAfterMs(new Headers({ "Retry-After": "Tue, 01 Jan 2030 00:00:05 GMT" }), now)).toBe(5_000)
    expect(retryAfterMs({ "retry-after": "Mon, 31 Dec 2029 23:59:00 GMT" }, now)).toBe(0)
  })

  it("ignores what it cannot read", () => {
    for (const value of ["", "soon", "-1", "1e3"]) expect(retryAfterMs({ "retry-after": value }, now)).toBeUndefined()
    expect(retryAfterMs({}, now)).toBeUndefined()
    expect(retryAfterMs(new Headers(), now)).toBeUndefined()
    expect(retryAfterMs({ "retry-after-ms": "soon", "retry-after": "2" }, now)).toBe(2_000)
  })
})

describe("backoffMs", () => {
  it("doubles per retry, with jitter below the base, up to the cap", () => {
    const capped = { ...policy, baseDelayMs: 100, maxDelayMs: 1_000, jitter: true }
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(capped, retry, () => 0))).toEqual([100, 200, 400, 800, 1_000])
    expect(backoffMs(capped, 1, () => 0.999)).toBe(199)
    expect(backoffMs(policy, 2, () => 0.999)).toBe(2_000)
  })
})

interface Failure extends RetryVerdict {
  readonly name: string
}

/** Runs `failures` in turn through Effect.retry (then succeeds); reports at what virtual times each attempt ran. */
const attemptsAt = (failures: ReadonlyArray<Failure>) =>
  Effect.gen(function*() {
    const times: Array<number> = []
    let next = 0
    const attempt = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      times.push(now)
      const failure = failures[next++]
      return failure === undefined ? Effect.succeed("done") : Effect.fail(failure)
    })
    const start = yield* Clock.currentTimeMillis
    const fiber = yield* Effect.retry(attempt, retrySchedule(policy, (failure: Failure) => failure)).pipe(
      Effect.result,
      Effect.forkChild
    )
    for (let i = 0; i < 40; i++) yield* TestClock.adjust("500 millis")
    const result = yield* Fiber.join(fiber)
    return { result, offsets: times.map((time) => time - start) }
  })

const transient = (name: string, retryAfterMs?: number): Failure => ({ name, retryable: true, retryAfterMs })

describe("retrySchedule", () => {
  it.effect("retries transient failures with backoff 1 s × 2^n", () =>
    Effect.gen(function*() {
      const { offsets, result } = yield* attemptsAt([transient("a"), transient("b")])
      assert.strictEqual(result._tag, "Success")
      assert.deepStrictEqual(offsets, [0, 1_000, 3_000])
    }))

  it.effect("gives up after two retries with the last failure", () =>
    Effect.gen(function*() {
      const { offsets, result } = yield* attemptsAt([transient("a"), transient("b"), transient("c"), transient("d")])
      assert.deepStrictEqual(offsets, [0, 1_000, 3_000])
      expect(result).toMatchObject({ _tag: "Failure", failure: { name: "c" } })
    }))

  it.effect("waits a short Retry-After instead of the backoff", () =>
    Effect.gen(function*() {
      const { offsets, result } = yield* attemptsAt([transient("a", 5_000), transient("b", 10_000)])
      assert.strictEqual(result._tag, "Success")
      assert.deepStrictEqual(offsets, [0, 5_000, 15_000])
    }))

  it.effect("does not wait for a Retry-After over the limit", () =>
    Effect.gen(function*() {
      const { offsets, result } = yield* attemptsAt([transient("a", 10_001)])
      assert.deepStrictEqual(offsets, [0])
      expect(result).toMatchObject({ _tag: "Failure", failure: { name: "a" } })
    }))

  it.effect("never retries what is not transient", () =>
    Effect.gen(function*() {
      const { offsets, result } = yield* attemptsAt([{ name: "refused", retryable: false }])
      assert.deepStrictEqual(offsets, [0])
      expect(result).toMatchObject({ _tag: "Failure", failure: { name: "refused" } })
    }))
})
