// Placeholder until the demo lands; kept so the CLI compiles meanwhile.
import { Effect } from "effect"

export const runDemo: Effect.Effect<void, unknown> = Effect.fail(new Error("demo not available yet"))
