import { Config, Duration, Schema } from "effect"

/** How the server stops and which browser pages may call it (docs/DESIGN.md §8, §3.19). */
export interface OperationsConfig {
  /** `PARLEY_SHUTDOWN_GRACE` (default 30 s): how long running requests may take to finish once the server stops. */
  readonly shutdownGraceMs: number
  /** `PARLEY_CORS_ORIGINS`: origins (`https://app.example`) or `*` whose pages may call the API; empty: CORS off. */
  readonly corsOrigins: ReadonlyArray<string>
}

const DEFAULT_SHUTDOWN_GRACE = Duration.seconds(30)

const originList = (text: string) => text.split(",").map((origin) => origin.trim()).filter((origin) => origin !== "")

/** `*`, or an origin exactly as a browser sends it: scheme, host, optional port, nothing after. */
const isOrigin = (text: string) => text === "*" || /^https?:\/\/[^/\s?#]+$/i.test(text)

const OriginList = Schema.String.check(Schema.makeFilter((text: string) => {
  const wrong = originList(text).find((origin) => !isOrigin(origin))
  return wrong === undefined ||
    `"${wrong}" is not an origin; list origins such as https://app.example:8443, comma-separated, or *`
}))

const SHORT_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }
const SHORT_DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i

/** `30s`, `500ms`, `2m`, `30d`, `30` (seconds) as DESIGN §8 writes them; Effect's own `30 seconds` is read as well. */
const shortDuration = (name: string) =>
  Config.schema(
    Schema.String.check(
      Schema.makeFilter((text: string) =>
        SHORT_DURATION.test(text) || "Expected a duration such as 30s, 500ms, 2m, 30d or 30 seconds"
      )
    ),
    name
  ).pipe(Config.map((text) => {
    const [, amount, unit] = SHORT_DURATION.exec(text)!
    return Duration.millis(Number(amount) * SHORT_UNITS[(unit ?? "s").toLowerCase()]!)
  }))

/**
 * A `PARLEY_*` duration in milliseconds, in either form. Effect's form first, so a value
 * neither form reads is reported with the short form's hint.
 */
export const durationSetting = (name: string, fallback: Duration.Duration) =>
  durationMs(name).pipe(Config.withDefault(Duration.toMillis(fallback)))

/** The same, without a default (absent when unset). */
export const durationMs = (name: string) =>
  Config.Duration(name).pipe(Config.orElse(() => shortDuration(name)), Config.map(Duration.toMillis))

export const shutdownGraceMs = durationSetting("PARLEY_SHUTDOWN_GRACE", DEFAULT_SHUTDOWN_GRACE)

export const corsOrigins = Config.schema(OriginList, "PARLEY_CORS_ORIGINS").pipe(
  Config.withDefault(""),
  // A browser sends the origin's scheme and host in lower case, with no trailing slash.
  Config.map((text) => originList(text).map((origin) => origin.toLowerCase()))
)

/** No CORS, the default grace. */
export const defaultOperations: OperationsConfig = {
  shutdownGraceMs: Duration.toMillis(DEFAULT_SHUTDOWN_GRACE),
  corsOrigins: []
}
