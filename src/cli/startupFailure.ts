import type { AppConfig } from "../config/AppConfig.ts"

/** The innermost cause's own words (a Node error: `connect ECONNREFUSED 127.0.0.1:5432`), on one line. */
const rootMessage = (error: unknown): string => {
  let current = error
  for (let depth = 0; depth < 8; depth++) {
    const next = (current as { cause?: unknown; reason?: unknown } | null)?.cause ??
      (current as { reason?: unknown } | null)?.reason
    if (next === undefined || next === null || typeof next !== "object") break
    current = next
  }
  const text = current instanceof Error ? current.message : String(current)
  return text.replace(/\s+/g, " ").trim()
}

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code
  return typeof code === "string" ? code : undefined
}

const listenProblem = (error: unknown, config: AppConfig["Service"]): string => {
  const where = `${config.host}:${config.port}`
  switch (codeOf(error)) {
    case "EADDRINUSE":
      return `port ${config.port} on ${config.host} is already in use (another parley?). Stop that process, or set PORT to a free port.`
    case "EACCES":
      return `not allowed to listen on ${where}. Set PORT to 1024 or above, or give node the right to bind low ports.`
    case "EADDRNOTAVAIL":
      return `HOST ${config.host} is not an address of this machine. Set HOST to one of its addresses, or 0.0.0.0 for all.`
    default:
      return `cannot listen on ${where} (${rootMessage(error)}). Check HOST and PORT.`
  }
}

/**
 * What stopped the gateway from starting, in one line saying what to do
 * (docs/DESIGN.md §8): never a stack trace, never DATABASE_URL itself (a
 * Postgres URL may hold a password). Configuration problems are reported
 * before this, one line each (`configurationReport`).
 */
export const startupFailure = (error: unknown, config: AppConfig["Service"]): string => {
  const tag = (error as { _tag?: unknown } | null)?._tag
  const problem = tag === "ServeError"
    ? listenProblem(error, config)
    : tag === "SqlError"
    ? `the database does not answer (${rootMessage(error)}). Check DATABASE_URL and that the database is running.`
    : tag === "MigrationError"
    ? `the database could not be migrated (${rootMessage(error)}). Check that DATABASE_URL's user may create tables.`
    : tag === "InvalidDatabaseUrl"
    ? (error as { message: string }).message
    : `${rootMessage(error)}.`
  return `parley cannot start: ${problem}`
}
