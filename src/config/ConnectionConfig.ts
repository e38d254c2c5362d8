import { Config, Duration, Effect, Option, Schema } from "effect"
import { readFileSync } from "node:fs"

/** How many client connections the server holds, and how long a client has to send a request's head. */
export interface ConnectionConfig {
  /**
   * `PARLEY_MAX_CONNECTIONS`; by default derived from the process's open-file
   * limit (`connectionsFor`). Undefined when that limit is unknown: no cap.
   */
  readonly maxConnections: number | undefined
  /** `PARLEY_HEADERS_TIMEOUT` (default 10 s): a connection that has not sent a whole request head by then is closed. */
  readonly headersTimeoutMs: number
}

const DEFAULT_HEADERS_TIMEOUT = Duration.seconds(10)

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
  const softLimit = Option.isSome(configured) ? undefined : yield* readSoftFileLimit
  const config: ConnectionConfig = {
    maxConnections: Option.isSome(configured)
      ? configured.value
      : softLimit === undefined
      ? undefined
      : connectionsFor(softLimit),
    headersTimeoutMs: Duration.toMillis(headersTimeout)
  }
  return config
})
