import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { ModelRegistry } from "../models/ModelRegistry.ts"
import { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import { StoreHealth } from "../store/StoreHealth.ts"
import { ServerDrain } from "./ServerDrain.ts"

export const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  (handlers) =>
    Effect.gen(function*() {
      const drain = yield* ServerDrain
      const models = yield* ModelRegistry
      const store = yield* StoreHealth
      const sandboxes = yield* SandboxProvider
      // docs/DESIGN.md §8: every reason at once, so an operator fixes them in one go.
      const reasons = Effect.gen(function*() {
        const found: Array<string> = []
        if (drain.draining) found.push("draining: the server is shutting down")
        const storeProblem = yield* store.problem
        if (storeProblem !== undefined) found.push(storeProblem)
        if (models.catalog.length === 0) found.push("providers: no model provider is configured")
        const sandboxProblem = yield* sandboxes.problem
        if (sandboxProblem !== undefined) found.push(sandboxProblem)
        return found
      })
      return handlers
        .handle("health", () => Effect.succeed({ status: "ok" as const }))
        .handle("ready", () =>
          Effect.flatMap(reasons, (found) =>
            found.length === 0 ? Effect.succeed({ status: "ready" as const }) : Effect.fail({ reasons: found })))
    })
)
