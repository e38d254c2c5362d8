import { Cause, Console, Effect, Layer, Result } from "effect"
import { makeGateway } from "../app/gateway.ts"
import { reloadOnHangup } from "../app/reloadOnHangup.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { keyVariableOf } from "../config/providerKeys.ts"
import { ToolRegistry } from "../tools/ToolRegistry.ts"
import { configurationReport } from "./setupFailure.ts"
import { startupFailure } from "./startupFailure.ts"

/** Printed when the gateway starts with no provider: it serves, but every chat request would fail. */
export const noProviderHint = [
  "parley: no model provider is configured, so every chat request will fail. Configure one:",
  "  - copy parley.config.example.json to parley.config.json and edit it (docs/getting-started.md runs it with a",
  "    scripted provider; docs/configuration.md#provider-types has the real ones), or",
  `  - set a provider type's key variable: ${
    Object.values(keyVariableOf).map((name) => name === "AZURE_API_KEY" ? `${name} with AZURE_RESOURCE_NAME` : name)
      .join(", ")
  }.`,
  "  `npx parley demo` shows parley at work with a scripted provider, nothing to configure."
].join("\n")

/**
 * `npm start` and `parley serve`: the gateway, configured from the environment
 * and the config file (docs/DESIGN.md §4). A bad configuration stops it before
 * anything starts, with every problem on its own line and exit code 1, no
 * stack trace; so does anything else that stops it starting (the port, the
 * database), in one line. SIGTERM and SIGINT drain it and exit 0; SIGHUP
 * reloads the config file's providers (docs/DESIGN.md §8).
 */
// Exits at once: a worker of `--workers` would otherwise be kept alive by its channel to the primary.
const cannotStart = Effect.sync(() => process.exit(1))

export const serve: Effect.Effect<void, unknown> = Effect.gen(function*() {
  const loaded = yield* Effect.result(Effect.provide(Effect.service(AppConfig), AppConfig.layer))
  if (Result.isFailure(loaded)) {
    yield* Console.error(configurationReport(loaded.failure))
    return yield* cannotStart
  }
  const config = loaded.success
  if (config.providers.length === 0) yield* Console.error(noProviderHint)
  const gateway = makeGateway({ config: Layer.succeed(AppConfig, config), tools: ToolRegistry.layer })
  yield* Layer.launch(reloadOnHangup.pipe(Layer.provideMerge(gateway))).pipe(
    // Stopped by a signal after draining: a clean stop (see `serverTeardown`).
    Effect.onInterrupt(() => Effect.sync(() => (process.exitCode = 0))),
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.andThen(Console.error(startupFailure(Cause.squash(cause), config)), cannotStart)
    )
  )
})
