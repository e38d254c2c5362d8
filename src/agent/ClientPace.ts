import { Effect } from "effect"

/**
 * How fast the client takes a streamed run's chunks. A client that reads
 * slowly must not make the gateway buffer the whole answer: while it is
 * behind, the run stops reading the model's answer and holds its tool
 * outputs until the client has caught up, so the memory one slow stream
 * holds stays bounded.
 */
export interface ClientPace {
  /** True while the client is behind: the chunks waiting for it passed a high-water mark. */
  readonly behind: boolean
  /** Resolves once the client has caught up, or has gone. */
  readonly caughtUp: () => Promise<void>
}

/** A client that never falls behind: a run gathered in memory, answered in one piece. */
export const keepsUp: ClientPace = { behind: false, caughtUp: () => Promise.resolve() }

/** Waits while the client is behind; at once otherwise. Interruptible, as a client that leaves interrupts the run. */
export const untilCaughtUp = (pace: ClientPace): Effect.Effect<void> =>
  pace.behind ? Effect.promise(() => pace.caughtUp()) : Effect.void
