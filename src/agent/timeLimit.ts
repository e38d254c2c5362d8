import { Clock, Context, Duration, Effect, Exit, Fiber, Option } from "effect"

// The clock a fiber has when nothing provides another (a Reference's default is made once).
const liveClock = Context.get(Context.empty(), Clock.Clock)
// Node's setTimeout takes at most this many milliseconds.
const MAX_TIMER_MILLIS = 2 ** 31 - 1

/**
 * `Effect.timeoutOption(duration)` with the same outcome and order: the
 * effect runs in a fiber of its own; the first to end wins; a timeout
 * interrupts the effect and waits for it (its finalizers run) before the
 * `None`; an interrupted caller interrupts it and waits too. On the live
 * clock the time limit is one Node timer instead of a second fiber
 * sleeping on the clock, which `timeoutOption` forks, interrupts and awaits
 * on every call: a run that ends in time costs ~10 µs less CPU
 * (BENCHMARKS.md, "Third pass"). Any other clock (`TestClock`) gets
 * `timeoutOption` itself.
 */
export const withinTimeLimit = (limit: Duration.Input) => {
  const duration = Duration.fromInputUnsafe(limit)
  const millis = Duration.toMillis(duration)
  const timed = millis > 0 && millis <= MAX_TIMER_MILLIS
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<Option.Option<A>, E, R> =>
    Effect.clockWith((clock) =>
      !timed || clock !== liveClock ? Effect.timeoutOption(self, duration) : Effect.uninterruptibleMask((restore) =>
        // Forked and watched with no interruption in between, as timeoutOption: an interrupted caller never leaves it running.
        Effect.flatMap(Effect.forkDetach(self, { startImmediately: true }), (fiber) =>
          Effect.onInterrupt(restore(awaitFor(fiber, millis)), () => Fiber.interrupt(fiber)))
      )
    )
}

// The fiber's outcome, or None once it was interrupted at the end of `millis`.
const awaitFor = <A, E>(fiber: Fiber.Fiber<A, E>, millis: number): Effect.Effect<Option.Option<A>, E> => {
  const ended = fiber.pollUnsafe()
  if (ended !== undefined) return Exit.map(ended, Option.some)
  return Effect.callback((resume) => {
    const stopObserving = fiber.addObserver((exit) => {
      clearTimeout(timer)
      resume(Exit.map(exit, Option.some))
    })
    const timer = setTimeout(() => {
      stopObserving()
      resume(Effect.as(Fiber.interrupt(fiber), Option.none()))
    }, millis)
    return Effect.sync(() => {
      clearTimeout(timer)
      stopObserving()
    })
  })
}
