import { Config, Redacted } from "effect"
import { dirname, resolve } from "node:path"

/** The embedded SQLite database, unless `DATABASE_URL` names another. */
export const defaultDatabaseUrl = "sqlite:./data/parley.db"

/** Unset or blank means the default. */
export const databaseUrl = Config.Redacted("DATABASE_URL").pipe(
  Config.withDefault(Redacted.make(defaultDatabaseUrl)),
  Config.map((url) => Redacted.value(url).trim() === "" ? Redacted.make(defaultDatabaseUrl) : url)
)

/**
 * Where parley keeps its own files (the generated `secret.key`): the folder
 * of the SQLite database, else `./data`.
 */
export const dataDirOf = (url: Redacted.Redacted<string>): string => {
  const file = /^sqlite:(?:\/\/)?(.+)$/i.exec(Redacted.value(url).trim())?.[1]
  return resolve(file === undefined || file === ":memory:" ? "./data" : dirname(file))
}
