import { assert, describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Option } from "effect"
import { TestClock } from "effect/testing"
import { withinTimeLimit } from "../../src/agent/timeLimit.ts"

/** What happened, in order, to one limited effect: its finalizer and what the caller saw. */
const recorded = <A, E>(
  limit: (self: Effect.Effect<A, E>) => Effect.Effect<Option.Option<A>, E>,
  body: Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const events: Array<string> = []
    const exit = yield* limit(Effect.onExit(body, (exit) => Effect.sync(() => events.push(`body ${exit._tag}`)))).pipe(
      Effect.tap(() => Effect.sync(() => events.push("caller resumed"))),
      Effect.exit
    )
    return { events, exit }
  })

// Each case runs through Effect.timeoutOption and through withinTimeLimit on the live clock: the same events, the same exit.
const sameAsTimeoutOption = <A, E>(millis: number, body: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const expected = yield* recorded((self) => Effect.timeoutOption(self, `${millis} millis`), body)
    const actual = yield* recorded(withinTimeLimit(`${millis} millis`), body)
    expect(actual.events).toEqual(expected.events)
    expect(actual.exit).toEqual(expected.exit)
    return actual
  })

describe("withinTimeLimit", () => {
  it.live("an effect that ends in time: its value, synchronous or not", () =>
    Effect.gen(function*() {
      const now = yield* sameAsTimeoutOption(1_000, Effect.succeed(1))
      expect(now.exit).toEqual(Exit.succeed(Option.some(1)))
      const later = yield* sameAsTimeoutOption(1_000, Effect.as(Effect.sleep("5 millis"), 2))
      expect(later.exit).toEqual(Exit.succeed(Option.some(2)))
    }))

  it.live("an effect that fails in time: its failure", () =>
    Effect.gen(function*() {
      const failed = yield* sameAsTimeoutOption(1_000, Effect.andThen(Effect.sleep("5 millis"), Effect.fail("no")))
      expect(failed.exit).toEqual(Exit.fail("no"))
    }))

  it.live("at the limit: the effect is interrupted and finalized before the caller gets None", () =>
    Effect.gen(function*() {
      const late = yield* sameAsTimeoutOption(20, Effect.never)
      expect(late.events).toEqual(["body Failure", "caller resumed"])
      expect(late.exit).toEqual(Exit.succeed(Option.none()))
    }))

  it.live("an interrupted caller interrupts the effect and waits for its finalizer", () =>
    Effect.gen(function*() {
      const limits = [
        (self: Effect.Effect<never>) => Effect.timeoutOption(self, "10 seconds"),
        withinTimeLimit("10 seconds")
      ]
      for (const limit of limits) {
        const started = yield* Deferred.make<void>()
        const finalized = yield* Deferred.make<void>()
        const body = Effect.andThen(Deferred.succeed(started, undefined), Effect.never).pipe(
          Effect.onInterrupt(() => Effect.andThen(Effect.sleep("10 millis"), Deferred.succeed(finalized, undefined)))
        )
        const caller = yield* Effect.forkChild(limit(body))
        yield* Deferred.await(started)
        yield* Fiber.interrupt(caller)
        assert.isTrue(yield* Deferred.isDone(finalized), String(limits.indexOf(limit)))
      }
    }))

  it.effect("on another clock the limit is that clock's", () =>
    Effect.gen(function*() {
      const caller = yield* Effect.forkChild(withinTimeLimit("300 seconds")(Effect.never))
      yield* TestClock.adjust("300 seconds")
      expect(yield* Fiber.join(caller)).toEqual(Option.none())
    }))
})
