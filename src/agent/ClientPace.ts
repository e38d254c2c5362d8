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
  /** The client takes the answer in one piece: nothing is streamed to it, so neither need the model's answers be. */
  readonly inOnePiece?: boolean
}

/** A client that never falls behind. */
export const keepsUp: ClientPace = { behind: false, caughtUp: () => Promise.resolve() }

/** A run gathered in memory, answered in one piece: the model is asked for whole answers where it can give them. */
export const inOnePiece: ClientPace = { ...keepsUp, inOnePiece: true }

/** Waits while the client is behind; at once otherwise. Interruptible, as a client that leaves interrupts the run. */
export const untilCaughtUp = (pace: ClientPace): Effect.Effect<void> =>
  pace.behind ? Effect.promise(() => pace.caughtUp()) : Effect.void
