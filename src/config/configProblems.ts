import { Config, Effect, Schema } from "effect"

/**
 * Every problem of the configuration (environment and config file), one line
 * each naming the setting and what to do. Startup stops with all of them at
 * once, so an operator fixes them in one go instead of one per restart.
 */
export class InvalidConfiguration extends Schema.TaggedError<InvalidConfiguration>()("InvalidConfiguration", {
  problems: Schema.Array(Schema.String)
}) {
  override get message() {
    return this.problems.join("\n")
  }
}

/** `Expected string\n  at ["providers"][0]["baseURL"]` → `["providers[0].baseURL: Expected string"]`, one per issue. */
export const schemaIssueLines = (message: string): ReadonlyArray<string> =>
  message.split(/\n(?=\S)/).map((issue) => {
    const [what, where] = issue.split(/\n\s*at /)
    const field = where?.replace(/\["([^"]*)"\]/g, ".$1").replace(/^\./, "")
    const problem = what === "Expected no excess property" ? "unknown field" : what
    return field === undefined ? problem ?? issue : `${field}: ${problem}`
  })

const configErrorLines = (error: Config.ConfigError): ReadonlyArray<string> => {
  const cause: unknown = error.cause
  const text = cause instanceof Error ? cause.message : String(cause)
  // Values are never echoed: DATABASE_URL or a key variable may hold a secret.
  return schemaIssueLines(text).map((line) => `${line} (fix the variable, or unset it for the default)`)
}

/** The lines of a failure to read the configuration. */
export const problemLines = (error: Config.ConfigError | InvalidConfiguration): ReadonlyArray<string> =>
  error._tag === "InvalidConfiguration" ? error.problems : configErrorLines(error)

/**
 * Reads settings one by one but keeps going past a bad one: `read` records
 * what is wrong and gives `fallback` so that the next settings are checked
 * too; `done` fails with every problem recorded, or returns the value.
 */
export const problemCollector = () => {
  const problems: Array<string> = []
  return {
    read: <A, R>(setting: Effect.Effect<A, Config.ConfigError | InvalidConfiguration, R>, fallback: A) =>
      Effect.catch(setting, (error) => {
        problems.push(...problemLines(error))
        return Effect.succeed(fallback)
      }),
    done: <A>(value: A): Effect.Effect<A, InvalidConfiguration> =>
      problems.length === 0 ? Effect.succeed(value) : Effect.fail(new InvalidConfiguration({ problems }))
  }
}

/** Any failure left over (a setting read without the collector) as the same one-line-per-problem error. */
export const asInvalidConfiguration = (error: Config.ConfigError | InvalidConfiguration): InvalidConfiguration =>
  error._tag === "InvalidConfiguration" ? error : new InvalidConfiguration({ problems: configErrorLines(error) })
