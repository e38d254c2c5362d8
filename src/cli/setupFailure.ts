import { AppConfig, type InvalidConfiguration } from "../config/AppConfig.ts"
import type * as Database from "../store/Database.ts"
import { CliFailure } from "./CliFailure.ts"

/** The configuration every command reads: the server's own, so both find the same database and sandboxes. */
export const cliConfig = AppConfig.layer

/** What can stop a command before it starts: the configuration or the database. */
export type SetupError = InvalidConfiguration | Database.DatabaseError

/** Every configuration problem, one line each, under a line saying what they stop. */
export const configurationReport = (error: InvalidConfiguration): string => {
  const count = error.problems.length === 1 ? "1 problem" : `${error.problems.length} problems`
  return [`parley cannot start: the configuration has ${count}:`, ...error.problems.map((line) => `  - ${line}`)].join(
    "\n"
  )
}

const causeText = (cause: unknown): string => cause instanceof Error ? `: ${cause.message}` : ""

// Never echo DATABASE_URL itself: a Postgres URL may hold a password.
export const explainSetup = (error: SetupError): CliFailure => {
  switch (error._tag) {
    case "InvalidConfiguration":
      return new CliFailure({ message: configurationReport(error) })
    case "InvalidDatabaseUrl":
      return new CliFailure({ message: error.message })
    case "SqlError":
      return new CliFailure({
        message: `Database error (${error.message}${causeText(error.reason.cause)}). Check DATABASE_URL.`
      })
    case "MigrationError":
      return new CliFailure({ message: `Could not migrate the database: ${error.message}${causeText(error.cause)}` })
  }
}
