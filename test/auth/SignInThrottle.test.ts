import { Duration } from "effect"
import { describe, expect, it } from "vitest"
import { SignInThrottle } from "../../src/auth/SignInThrottle.ts"

const ms = (duration: Duration.Duration) => Duration.toMillis(duration)

describe("SignInThrottle", () => {
  it("lets the first failures pass, then doubles the wait up to the ceiling", () => {
    const throttle = new SignInThrottle({ freeFailures: 2, baseDelayMs: 100, maxDelayMs: 350 })
    const keys = ["email:a@x", "address:1.2.3.4"]
    const waits = []
    for (let i = 0; i < 5; i++) {
      waits.push(ms(throttle.delayFor(keys, 0)))
      throttle.failed(keys, 0)
    }
    expect(waits).toEqual([0, 0, 100, 200, 350])
  })

  it("slows an address trying other emails, forgives after success or a quiet quarter hour", () => {
    const throttle = new SignInThrottle({ freeFailures: 1, baseDelayMs: 100 })
    throttle.failed(["email:a@x", "address:1.2.3.4"], 0)
    expect(ms(throttle.delayFor(["email:b@x", "address:1.2.3.4"], 0))).toBe(100)
    expect(ms(throttle.delayFor(["email:b@x", "address:5.6.7.8"], 0))).toBe(0)
    throttle.succeeded(["email:a@x", "address:1.2.3.4"])
    expect(ms(throttle.delayFor(["email:a@x", "address:1.2.3.4"], 0))).toBe(0)
    throttle.failed(["email:a@x"], 0)
    expect(ms(throttle.delayFor(["email:a@x"], 16 * 60_000))).toBe(0)
  })
})
