import { Config, Effect, FileSystem, Option, type Redacted, Schema } from "effect"
import { resolve } from "node:path"
import { builtinCatalog } from "./builtinCatalogs.ts"
import { type McpServerConfig, toMcpServerConfig } from "./McpServerConfig.ts"
import {
  ConfigFileContent,
  DEFAULT_PROVIDER_TIMEOUTS,
  type ProviderConfig,
  type ProviderEntry
} from "./ProviderConfig.ts"

/** A config file that cannot be read or does not hold a valid configuration; fails startup. */
export class ConfigFileError extends Schema.TaggedError<ConfigFileError>()("ConfigFileError", {
  path: Schema.String,
  message: Schema.String
}) {}

export const DEFAULT_CONFIG_FILE = "parley.config.json"

/** `PARLEY_CONFIG` when set (the file must exist), else `./parley.config.json` when present. */
export const configFilePath = Effect.gen(function*() {
  const explicit = yield* Config.option(Config.String("PARLEY_CONFIG"))
  if (Option.isSome(explicit)) return Option.some(resolve(explicit.value))
  const fs = yield* FileSystem.FileSystem
  const fallback = resolve(DEFAULT_CONFIG_FILE)
  const present = yield* fs.exists(fallback).pipe(Effect.orElseSucceed(() => false))
  return present ? Option.some(fallback) : Option.none()
})

const decodeContent = Schema.decodeUnknownEffect(ConfigFileContent, { onExcessProperty: "error", errors: "all" })

/** `Expected string\n  at ["providers"][0]["baseURL"]` → `providers[0].baseURL: Expected string`. */
const describeSchemaError = (message: string): string =>
  message
    .split(/\n(?=\S)/)
    .map((issue) => {
      const [what, where] = issue.split(/\n\s*at /)
      const field = where?.replace(/\["([^"]*)"\]/g, ".$1").replace(/^\./, "")
      const problem = what === "Expected no excess property" ? "unknown field" : what
      return field === undefined ? problem : `${field}: ${problem}`
    })
    .join("; ")

/** What a config file configures. */
export interface ConfigFileSettings {
  readonly providers: ReadonlyArray<ProviderConfig>
  readonly mcpServers: ReadonlyArray<McpServerConfig>
}

/**
 * Reads, decodes and resolves a config file into providers (keys from
 * `apiKeyEnv` looked up, catalogs filled in) and MCP servers.
 */
export const loadConfigFile = Effect.fn("loadConfigFile")(
  function*(path: string): Effect.fn.Return<ConfigFileSettings, ConfigFileError, FileSystem.FileSystem> {
    const fail = (message: string) => new ConfigFileError({ path, message: `Invalid config file ${path}: ${message}` })
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path).pipe(
      Effect.mapError((error) =>
        new ConfigFileError({ path, message: `Cannot read config file ${path}: ${error.message}` })
      )
    )
    const json = yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (error) => fail(`not valid JSON (${error instanceof Error ? error.message : String(error)})`)
    })
    const content = yield* decodeContent(json).pipe(
      Effect.mapError((error) => fail(describeSchemaError(error.message)))
    )

    const seen = new Set<string>()
    const providers: Array<ProviderConfig> = []
    for (const [index, entry] of content.providers.entries()) {
      const at = `providers[${index}]`
      if (seen.has(entry.id)) return yield* fail(`${at}.id: duplicate provider id "${entry.id}"`)
      seen.add(entry.id)
      const problem = entryProblem(entry)
      if (problem !== undefined) return yield* fail(`${at}${problem}`)
      const apiKey = yield* resolveApiKey(entry).pipe(Effect.mapError((problem) => fail(`${at}.apiKeyEnv: ${problem}`)))
      if (apiKey === undefined && entry.type !== "openai-compatible") {
        return yield* fail(`${at}: apiKey or apiKeyEnv is required for type ${entry.type}`)
      }
      const resolved = {
        id: entry.id,
        models: entry.models ?? builtinCatalog(entry.type) ?? [],
        timeouts: {
          firstByteMs: entry.firstByteTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUTS.firstByteMs,
          idleMs: entry.idleTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUTS.idleMs
        },
        ...(apiKey === undefined ? {} : { apiKey })
      }
      if (entry.type !== "openai-compatible") {
        providers.push({
          ...resolved,
          type: entry.type,
          ...(entry.baseURL === undefined ? {} : { baseURL: entry.baseURL })
        })
      } else if (entry.baseURL === undefined) {
        return yield* fail(`${at}.baseURL: required for type openai-compatible`)
      } else {
        providers.push({ ...resolved, type: entry.type, baseURL: entry.baseURL })
      }
    }
    const serverIds = new Set<string>()
    for (const [index, entry] of (content.mcpServers ?? []).entries()) {
      if (serverIds.has(entry.id)) return yield* fail(`mcpServers[${index}].id: duplicate MCP server id "${entry.id}"`)
      serverIds.add(entry.id)
    }
    return { providers, mcpServers: (content.mcpServers ?? []).map(toMcpServerConfig) }
  }
)

/** Checks the schema cannot express; the answer starts with the field it is about. */
const entryProblem = (entry: ProviderEntry): string | undefined => {
  if (entry.apiKey !== undefined && entry.apiKeyEnv !== undefined) return ": give apiKey or apiKeyEnv, not both"
  if (entry.type === "openai-compatible" && entry.models === undefined) {
    return ".models: required for type openai-compatible"
  }
  const ids = new Set<string>()
  for (const [index, model] of (entry.models ?? []).entries()) {
    if (ids.has(model.id)) return `.models[${index}].id: duplicate model id "${model.id}"`
    ids.add(model.id)
  }
  return undefined
}

/** The key itself, or the one in the environment variable `apiKeyEnv` names; fails with what is wrong. */
const resolveApiKey = (entry: ProviderEntry): Effect.Effect<Redacted.Redacted<string> | undefined, string> => {
  if (entry.apiKeyEnv === undefined) return Effect.succeed(entry.apiKey)
  const variable = entry.apiKeyEnv
  return Config.option(Config.Redacted(variable)).pipe(
    Effect.mapError(() => `environment variable ${variable} cannot be read`),
    Effect.flatMap(Option.match({
      onNone: () => Effect.fail(`environment variable ${variable} is not set`),
      onSome: (key) => Effect.succeed(key)
    }))
  )
}
