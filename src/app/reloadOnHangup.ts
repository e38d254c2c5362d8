import { Effect, Layer, Semaphore } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import { problemLines } from "../config/configProblems.ts"
import { ModelRegistry } from "../models/ModelRegistry.ts"

/** The configuration read again, as at startup; its providers replace the running ones. */
const reload = Effect.gen(function*() {
  const models = yield* ModelRegistry
  // Fresh: a layer built once in this process is otherwise reused, with the file as it was then.
  const read = yield* Effect.result(Effect.provide(Effect.service(AppConfig), Layer.fresh(AppConfig.layer)))
  if (read._tag === "Failure") {
    // One line, so a log search for "reload" finds the whole reason.
    return yield* Effect.logError(
      `Config reload failed, the running configuration stays: ${problemLines(read.failure).join("; ")}`
    )
  }
  const { providers } = read.success
  yield* models.replace(read.success)
  yield* Effect.logInfo(`Config reloaded: ${providers.length} provider(s), ${models.catalog.length} model(s)`)
})

/**
 * SIGHUP reloads the config file's providers and models (docs/DESIGN.md §8);
 * a file that does not load leaves the running ones and logs why. Other
 * settings (the port, the database, limits) are read once, at startup.
 * Reloads run one at a time, in the order the signals came.
 */
export const reloadOnHangup: Layer.Layer<never, never, ModelRegistry> = Layer.effectDiscard(
  Effect.gen(function*() {
    const context = yield* Effect.context<ModelRegistry>()
    const oneAtATime = Semaphore.makeUnsafe(1)
    const onHangup = () => void Effect.runForkWith(context)(oneAtATime.withPermit(reload))
    yield* Effect.acquireRelease(
      Effect.sync(() => process.on("SIGHUP", onHangup)),
      () => Effect.sync(() => process.off("SIGHUP", onHangup))
    )
  })
)
