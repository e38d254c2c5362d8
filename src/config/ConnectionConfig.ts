import { Config, Duration, Effect, Option, Schema } from "effect"
import { readFileSync } from "node:fs"
import { InvalidConfiguration } from "./configProblems.ts"
import { durationSetting } from "./OperationsConfig.ts"

/** How many client connections the server holds, how long a client has to send a request's head, and how long an idle one stays open. */
export interface ConnectionConfig {
  /**
   * `PARLEY_MAX_CONNECTIONS`; by default derived from the process's open-file
   * limit (`connectionsFor`). Undefined when that limit is unknown: no cap.
   */
  readonly maxConnections: number | undefined
  /** `PARLEY_HEADERS_TIMEOUT` (default 10 s): a connection that has not sent a whole request head by then is closed. */
  readonly headersTimeoutMs: number
  /**
   * `PARLEY_KEEPALIVE_TIMEOUT` (default 75 s): how long a connection stays open
   * between requests. Longer than a proxy keeps an idle upstream connection
   * (nginx's upstream `keepalive_timeout`, 60 s in `deploy/`): the proxy then
   * lets a connection go before parley closes it, and never sends a request on
   * one parley is closing (which it would answer with 502).
   */
  readonly keepAliveTimeoutMs: number
}

const DEFAULT_HEADERS_TIMEOUT = Duration.seconds(10)
export const DEFAULT_KEEPALIVE_TIMEOUT = Duration.seconds(75)
const MAX_KEEPALIVE_MS = 3_600_000

/** The soft limit on open files in `/proc/self/limits` ("Max open files  20000  20000  files"); unknown off Linux. */
export const softFileLimit = (limits: string): number | undefined => {
  const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1]
  return soft === undefined ? undefined : Number(soft)
}

/**
 * The default cap for a soft open-file limit: a quarter of the descriptors
 * stays for sandboxes, files, the database and the browser, and each client
 * connection may hold a second one for its provider call. A flood of
 * connections then never leaves the gateway unable to call a provider or
 * accept a request.
 */
export const connectionsFor = (softLimit: number): number => Math.max(1, Math.floor(softLimit * 3 / 8))

const readSoftFileLimit = Effect.sync(() => {
  try {
    return softFileLimit(readFileSync("/proc/self/limits", "utf8"))
  } catch {
    return undefined
  }
})

export const connectionConfig = Effect.gen(function*() {
  const configured = yield* Config.option(
    Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PARLEY_MAX_CONNECTIONS")
  )
  const headersTimeout = yield* Config.Duration("PARLEY_HEADERS_TIMEOUT").pipe(
    Config.withDefault(DEFAULT_HEADERS_TIMEOUT)
  )
  const keepAliveTimeoutMs = yield* durationSetting("PARLEY_KEEPALIVE_TIMEOUT", DEFAULT_KEEPALIVE_TIMEOUT)
  // Node keeps a connection forever at 0 and cannot time longer than 2^31 ms; an hour is more than any proxy keeps one.
  if (keepAliveTimeoutMs <= 0 || keepAliveTimeoutMs > MAX_KEEPALIVE_MS) {
    return yield* new InvalidConfiguration({
      problems: [
        "PARLEY_KEEPALIVE_TIMEOUT: must be more than 0 and at most 1 hour (unset it for the default, 75 seconds)"
      ]
    })
  }
  const softLimit = Option.isSome(configured) ? undefined : yield* readSoftFileLimit
  const config: ConnectionConfig = {
    maxConnections: Option.isSome(configured)
      ? configured.value
      : softLimit === undefined
      ? undefined
      : connectionsFor(softLimit),
    headersTimeoutMs: Duration.toMillis(headersTimeout),
    keepAliveTimeoutMs
  }
  return config
})
