import { Console, Effect } from "effect"
import { startUpstream } from "../demo/upstream/server.ts"

/** Where the example config (`parley.config.example.json`) expects its `local` provider. */
export const DEFAULT_PORT = 9100

/**
 * `parley demo --provider [--port N]`: only the demo's scripted
 * OpenAI-compatible provider, on 127.0.0.1:9100 where the example config
 * points (or `port`), until stopped; so the README's tour and the guides run with no model server at hand.
 * It echoes the user, calls the first tool offered and sums up its result.
 */
export const runDemoProvider = (port: number): Effect.Effect<never> =>
  Effect.acquireRelease(
    Effect.promise(() => startUpstream({ port, models: ["m1"] })),
    (upstream) => Effect.promise(() => upstream.close())
  ).pipe(
    Effect.tap((upstream) =>
      Console.error(
        `A scripted OpenAI-compatible provider listens on ${upstream.url} (model m1). Stop it with Ctrl-C.`
      )
    ),
    Effect.andThen(Effect.never),
    Effect.scoped
  )
