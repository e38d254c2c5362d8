import { Console, Effect, Layer, Result } from "effect"
import { makeGateway } from "../app/gateway.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { ToolRegistry } from "../tools/ToolRegistry.ts"
import { configurationReport } from "./setupFailure.ts"

/** Printed when the gateway starts with no provider: it serves, but every chat request would fail. */
export const noProviderHint = [
  "parley: no model provider is configured, so every chat request will fail. Configure one:",
  "  - copy parley.config.example.json to parley.config.json and edit it (see README, Walk-through), or",
  "  - set OPENAI_API_KEY or ANTHROPIC_API_KEY.",
  "  `npx parley demo` shows parley at work with a scripted provider, nothing to configure."
].join("\n")

/**
 * `npm start` and `parley serve`: the gateway, configured from the environment
 * and the config file (docs/DESIGN.md §4). A bad configuration stops it before
 * anything starts, with every problem on its own line and exit code 1, no
 * stack trace.
 */
export const serve: Effect.Effect<void, unknown> = Effect.gen(function*() {
  const loaded = yield* Effect.result(Effect.provide(Effect.service(AppConfig), AppConfig.layer))
  if (Result.isFailure(loaded)) {
    yield* Console.error(configurationReport(loaded.failure))
    process.exitCode = 1
    return
  }
  const config = loaded.success
  if (config.providers.length === 0) yield* Console.error(noProviderHint)
  yield* Layer.launch(makeGateway({ config: Layer.succeed(AppConfig, config), tools: ToolRegistry.layer }))
})
