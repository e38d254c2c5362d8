import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"

export const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  (handlers) => Effect.succeed(handlers.handle("health", () => Effect.succeed({ status: "ok" as const })))
)
