// Placeholder replaced by the HTTP wiring; kept so the CLI compiles meanwhile.
import { Effect } from "effect"

export const runServer: Effect.Effect<never, unknown> = Effect.never
