import { Config, Duration, Effect, Option, Schema } from "effect"
import { InvalidConfiguration } from "./configProblems.ts"
import { durationSetting } from "./OperationsConfig.ts"

// The environment's single-valued settings that `AppConfig` reads beside its groups (connections, operations,
// sandboxes, observability), with their defaults.

export const MiB = 1024 * 1024

/** Bytes as a plain integer (`1048576`) or with a unit (`10MiB`, `512kB`). */
export const bodyLimitBytes = Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PARLEY_BODY_LIMIT").pipe(
  Config.orElse(() => Config.ByteSize("PARLEY_BODY_LIMIT").pipe(Config.map(Number))),
  Config.withDefault(10 * MiB)
)

/** The largest body the gateway fetches for a client (a URL in a message part); plain bytes or with a unit. */
export const fetchMaxBytes = Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PARLEY_FETCH_MAX_BYTES").pipe(
  Config.orElse(() => Config.ByteSize("PARLEY_FETCH_MAX_BYTES").pipe(Config.map(Number))),
  Config.withDefault(20 * MiB)
)

/** Kept streams of runs that outlive their client (docs/DESIGN.md §16): how long after the end, and how large. */
export const streamSettings = Config.all({
  retentionMs: Config.Duration("PARLEY_STREAM_RETENTION").pipe(
    Config.map(Duration.toMillis),
    Config.withDefault(600_000)
  ),
  maxBytes: Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PARLEY_STREAM_MAX_BYTES").pipe(
    Config.orElse(() => Config.ByteSize("PARLEY_STREAM_MAX_BYTES").pipe(Config.map(Number))),
    Config.withDefault(8 * MiB)
  )
})
export const defaultStreams = { retentionMs: 600_000, maxBytes: 8 * MiB }

export const fetchTimeoutMs = Config.Duration("PARLEY_FETCH_TIMEOUT").pipe(
  Config.map(Duration.toMillis),
  Config.withDefault(30_000)
)

/**
 * `PARLEY_KEY_CACHE_TTL`: how long a verified key is trusted without asking
 * the database. Changes that no notification carries (the CLI on SQLite,
 * Postgres `LISTEN` down) wait this long, and DESIGN §4 promises 5 s.
 */
export const keyCacheTtlMs = Effect.flatMap(Config.option(Config.Duration("PARLEY_KEY_CACHE_TTL")), (ttl) => {
  const ms = Option.map(ttl, Duration.toMillis)
  if (Option.isNone(ms)) return Effect.undefined
  return ms.value > 0 && ms.value <= 5_000 ? Effect.succeed(ms.value) : Effect.fail(
    new InvalidConfiguration({
      problems: ["PARLEY_KEY_CACHE_TTL: must be more than 0 and at most 5 seconds (unset it for the default, 1 second)"]
    })
  )
})

/** `PARLEY_SECRET_KEY`: 32 or more bytes in base64 (docs/DESIGN.md §4). */
const SecretKeyText = Schema.String.check(Schema.makeFilter(
  (text: string) =>
    Buffer.from(text.trim(), "base64").length >= 32 ||
    "PARLEY_SECRET_KEY must be 32 or more bytes, base64-encoded (openssl rand -base64 32)"
))
export const secretKey = Config.option(Config.schema(Schema.Redacted(SecretKeyText), "PARLEY_SECRET_KEY")).pipe(
  Config.map(Option.getOrUndefined)
)

/** How long usage ledger rows are kept (docs/DESIGN.md §7). */
export const ledgerDays = Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PARLEY_LEDGER_DAYS").pipe(
  Config.withDefault(90)
)

/** `PARLEY_RESPONSE_RETENTION`: how long a stored response is kept (docs/DESIGN.md §14). */
export const DEFAULT_RESPONSE_RETENTION = Duration.days(30)
export const responseRetentionMs = durationSetting("PARLEY_RESPONSE_RETENTION", DEFAULT_RESPONSE_RETENTION)
