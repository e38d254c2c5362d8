import { Config, Effect, FileSystem, Option, type Redacted, Result, Schema } from "effect"
import { resolve } from "node:path"
import { cloudProvider, isCloudType, isProblems } from "./cloudProviders.ts"
import { InvalidConfiguration, problemLines, schemaIssueLines } from "./configProblems.ts"
import { type McpServerConfig, toMcpServerConfig } from "./McpServerConfig.ts"
import { loadModelCatalog, offeredModels } from "./modelCatalog.ts"
import {
  ConfigFileContent,
  DEFAULT_PROVIDER_TIMEOUTS,
  DNS_LABEL,
  type ProviderConfig,
  type ProviderEntry
} from "./ProviderConfig.ts"
import { azureResourceName, cloudVariables, conventionalKey, keyVariableOf } from "./providerKeys.ts"
import { decodeRouteEntries, reindexed, type RouteEntryAt, splitRoutes } from "./RouteConfig.ts"

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

/** What a config file configures. */
export interface ConfigFileSettings {
  readonly providers: ReadonlyArray<ProviderConfig>
  readonly mcpServers: ReadonlyArray<McpServerConfig>
  /** `type: "route"` entries, checked against every provider once the environment's are known too. */
  readonly routes: ReadonlyArray<RouteEntryAt>
}

/**
 * Reads, decodes and resolves a config file into providers (keys from
 * `apiKeyEnv` looked up, model catalog data filled in) and MCP servers. Fails with
 * every problem of the file, each line naming the file and the field.
 */
export const loadConfigFile = Effect.fn("loadConfigFile")(
  function*(
    path: string
  ): Effect.fn.Return<ConfigFileSettings, InvalidConfiguration, FileSystem.FileSystem> {
    const invalid = (problems: ReadonlyArray<string>) =>
      new InvalidConfiguration({ problems: problems.map((problem) => `${path}: ${problem}`) })
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path).pipe(
      Effect.mapError((error) =>
        new InvalidConfiguration({
          problems: [`Cannot read config file ${path}: ${error.message}. Create it, or unset PARLEY_CONFIG.`]
        })
      )
    )
    const json = yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (error) => invalid([`not valid JSON (${error instanceof Error ? error.message : String(error)})`])
    })
    const split = splitRoutes(json)
    const lines = (message: string, fileIndex: ReadonlyArray<number>) =>
      schemaIssueLines(message).map((line) => reindexed(line, fileIndex))
    const [decoded, routes] = yield* Effect.all([
      Effect.result(decodeContent(split.json)),
      Effect.result(decodeRouteEntries({ providers: split.routes }))
    ])
    if (Result.isFailure(decoded) || Result.isFailure(routes)) {
      return yield* invalid([
        ...(Result.isFailure(decoded) ? lines(decoded.failure.message, split.otherIndex) : []),
        ...(Result.isFailure(routes) ? lines(routes.failure.message, split.routeIndex) : [])
      ])
    }
    const content = decoded.success

    const catalog = content.providers.some((entry) => entry.type !== "openai-compatible")
      ? yield* Effect.promise(loadModelCatalog)
      : undefined
    const problems: Array<string> = []
    const cloud = yield* cloudVariables.pipe(
      Effect.mapError((error: Config.ConfigError) => invalid(problemLines(error)))
    )
    const seen = new Set<string>()
    const providers: Array<ProviderConfig> = []
    for (const [index, entry] of content.providers.entries()) {
      const at = `providers[${index}]`
      if (seen.has(entry.id)) problems.push(`${at}.id: duplicate provider id "${entry.id}"`)
      seen.add(entry.id)
      const problem = entryProblem(entry)
      if (problem !== undefined) problems.push(`${at}${problem}`)
      const key = yield* Effect.result(resolveApiKey(entry))
      if (Result.isFailure(key)) {
        problems.push(`${at}.apiKeyEnv: ${key.failure}`)
        continue
      }
      const apiKey = key.success
      const resolved = {
        id: entry.id,
        models: offeredModels(catalog, entry.type, entry.models),
        timeouts: {
          firstByteMs: entry.firstByteTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUTS.firstByteMs,
          idleMs: entry.idleTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUTS.idleMs,
          answerMs: entry.answerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUTS.answerMs
        },
        ...(apiKey === undefined ? {} : { apiKey })
      }
      if (isCloudType(entry.type)) {
        // Google credentials or SigV4 stand in for a key: these types check their own.
        const outcome = cloudProvider({ ...entry, type: entry.type }, resolved, cloud)
        if (isProblems(outcome)) problems.push(...outcome.map((problem) => `${at}${problem}`))
        else providers.push(outcome)
        continue
      }
      if (apiKey === undefined && entry.type !== "openai-compatible") {
        problems.push(
          `${at}: apiKey or apiKeyEnv is required for type ${entry.type}, or set ${keyVariableOf[entry.type]}`
        )
        continue
      }
      if (entry.type === "azure") {
        const resource = yield* azureResource(entry)
        if (typeof resource === "string") {
          problems.push(`${at}${resource}`)
        } else {
          providers.push({
            ...resolved,
            type: entry.type,
            ...(entry.baseURL === undefined ? {} : { baseURL: entry.baseURL }),
            ...resource,
            ...(entry.apiVersion === undefined ? {} : { apiVersion: entry.apiVersion })
          })
        }
      } else if (entry.type !== "openai-compatible") {
        providers.push({
          ...resolved,
          type: entry.type,
          ...(entry.baseURL === undefined ? {} : { baseURL: entry.baseURL })
        })
      } else if (entry.baseURL === undefined) {
        problems.push(`${at}.baseURL: required for type openai-compatible`)
      } else {
        providers.push({ ...resolved, type: entry.type, baseURL: entry.baseURL })
      }
    }
    const serverIds = new Set<string>()
    for (const [index, entry] of (content.mcpServers ?? []).entries()) {
      if (serverIds.has(entry.id)) problems.push(`mcpServers[${index}].id: duplicate MCP server id "${entry.id}"`)
      serverIds.add(entry.id)
    }
    if (problems.length > 0) return yield* invalid(problems)
    return {
      providers,
      mcpServers: (content.mcpServers ?? []).map(toMcpServerConfig),
      routes: routes.success.providers.map((entry, index) => ({
        at: `${path}: providers[${split.routeIndex[index]}]`,
        entry
      }))
    }
  }
)

/** A type's own settings, which no other type takes. */
const OWN_FIELDS = {
  resourceName: "azure",
  apiVersion: "azure",
  project: "vertex",
  location: "vertex",
  region: "bedrock",
  accessKeyId: "bedrock",
  secretAccessKey: "bedrock",
  sessionToken: "bedrock"
} as const

/** Checks the schema cannot express; the answer starts with the field it is about. */
const entryProblem = (entry: ProviderEntry): string | undefined => {
  if (entry.apiKey !== undefined && entry.apiKeyEnv !== undefined) return ": give apiKey or apiKeyEnv, not both"
  if (entry.type === "openai-compatible" && entry.models === undefined) {
    return ".models: required for type openai-compatible"
  }
  for (const [field, type] of Object.entries(OWN_FIELDS)) {
    if (entry[field as keyof typeof OWN_FIELDS] !== undefined && entry.type !== type) {
      return `.${field}: only for type ${type}`
    }
  }
  const ids = new Set<string>()
  for (const [index, model] of (entry.models ?? []).entries()) {
    if (ids.has(model.id)) return `.models[${index}].id: duplicate model id "${model.id}"`
    ids.add(model.id)
  }
  return undefined
}

/**
 * Where an `azure` entry's requests go: its `baseURL`, else its
 * `resourceName`, else `AZURE_RESOURCE_NAME`'s; a string: what is wrong.
 */
const azureResource = (
  entry: ProviderEntry
): Effect.Effect<{ readonly resourceName?: string } | string> => {
  if (entry.baseURL !== undefined) return Effect.succeed({})
  if (entry.resourceName !== undefined) return Effect.succeed({ resourceName: entry.resourceName })
  return azureResourceName.pipe(
    Effect.map(Option.match({
      onNone: () => ": resourceName or baseURL is required for type azure, or set AZURE_RESOURCE_NAME",
      onSome: (name): { readonly resourceName?: string } | string =>
        DNS_LABEL.test(name)
          ? { resourceName: name }
          : `: AZURE_RESOURCE_NAME "${name}" is not an Azure resource name (letters, digits and hyphens)`
    })),
    Effect.orElseSucceed(() => ": environment variable AZURE_RESOURCE_NAME cannot be read")
  )
}

/**
 * The key itself, or the one in the environment variable `apiKeyEnv` names,
 * else (a type other than `openai-compatible`) the one in its AI SDK
 * package's own variable (`GOOGLE_GENERATIVE_AI_API_KEY`…); fails with what is wrong.
 */
const resolveApiKey = (entry: ProviderEntry): Effect.Effect<Redacted.Redacted<string> | undefined, string> => {
  if (entry.apiKey !== undefined) return Effect.succeed(entry.apiKey)
  if (entry.apiKeyEnv === undefined) {
    const type = entry.type
    return type === "openai-compatible" ? Effect.undefined : conventionalKey(type).pipe(
      Effect.map(Option.getOrUndefined),
      Effect.mapError(() => `environment variable ${keyVariableOf[type]} cannot be read`)
    )
  }
  const variable = entry.apiKeyEnv
  return Config.option(Config.Redacted(variable)).pipe(
    Effect.mapError(() => `environment variable ${variable} cannot be read`),
    Effect.flatMap(Option.match({
      onNone: () =>
        Effect.fail(
          `environment variable ${variable} is not set: set it to provider "${entry.id}"'s API key${
            entry.type === "openai-compatible" ? ", or remove apiKeyEnv if the server needs no key" : ""
          }`
        ),
      onSome: (key) => Effect.succeed(key)
    }))
  )
}
