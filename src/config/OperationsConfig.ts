import { Config, Duration, Effect, Schema } from "effect"

/** How the server stops and which browser pages may call it (docs/DESIGN.md §8, §3.19). */
export interface OperationsConfig {
  /** `PARLEY_SHUTDOWN_GRACE` (default 30 s): how long running requests may take to finish once the server stops. */
  readonly shutdownGraceMs: number
  /** `PARLEY_CORS_ORIGINS`: origins (`https://app.example`) or `*` whose pages may call the API; empty: CORS off. */
  readonly corsOrigins: ReadonlyArray<string>
}

const DEFAULT_SHUTDOWN_GRACE = Duration.seconds(30)

/** `*`, or an origin exactly as a browser sends it: scheme, host, optional port, nothing after. */
const Origin = Schema.Trim.check(
  Schema.makeFilter((text: string) =>
    text === "" || text === "*" || /^https?:\/\/[^/\s?#]+$/i.test(text) ||
    `PARLEY_CORS_ORIGINS: "${text}" is not an origin; list origins such as https://app.example:8443, comma-separated, or *`
  )
)

export const operationsConfig = Effect.gen(function*() {
  const grace = yield* Config.Duration("PARLEY_SHUTDOWN_GRACE").pipe(Config.withDefault(DEFAULT_SHUTDOWN_GRACE))
  const origins = yield* Config.Array(Origin, "PARLEY_CORS_ORIGINS").pipe(Config.withDefault([]))
  const config: OperationsConfig = {
    shutdownGraceMs: Duration.toMillis(grace),
    // A browser sends the origin in lower case (scheme and host), with no trailing slash.
    corsOrigins: origins.filter((origin) => origin !== "").map((origin) => origin.toLowerCase())
  }
  return config
})

/** No CORS, the default grace. */
export const defaultOperations: OperationsConfig = {
  shutdownGraceMs: Duration.toMillis(DEFAULT_SHUTDOWN_GRACE),
  corsOrigins: []
}
