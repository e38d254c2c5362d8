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

const SHORT_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }
const SHORT_DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i

/** `30s`, `500ms`, `2m`, `30` (seconds) as DESIGN §8 writes them; Effect's own `30 seconds` is read as well. */
const shortDuration = Config.schema(
  Schema.String.check(
    Schema.makeFilter((text: string) =>
      SHORT_DURATION.test(text) || "Expected a duration such as 30s, 500ms, 2m or 30 seconds"
    )
  ),
  "PARLEY_SHUTDOWN_GRACE"
).pipe(Config.map((text) => {
  const [, amount, unit] = SHORT_DURATION.exec(text)!
  return Duration.millis(Number(amount) * SHORT_UNITS[(unit ?? "s").toLowerCase()]!)
}))

export const operationsConfig = Effect.gen(function*() {
  // Effect's form first, so a value neither form reads is reported with the short form's hint.
  const grace = yield* Config.Duration("PARLEY_SHUTDOWN_GRACE").pipe(
    Config.orElse(() => shortDuration),
    Config.withDefault(DEFAULT_SHUTDOWN_GRACE)
  )
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
