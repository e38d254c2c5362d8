import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Config, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { builtinCatalog } from "./builtinCatalogs.ts"
import { configFilePath, loadConfigFile } from "./ConfigFile.ts"
import type { McpServerConfig } from "./McpServerConfig.ts"
import type { ProviderConfig } from "./ProviderConfig.ts"
import { type SandboxConfig, sandboxConfig } from "./SandboxConfig.ts"

export { ConfigFileError } from "./ConfigFile.ts"
export type { McpServerConfig } from "./McpServerConfig.ts"
export { DEFAULT_PROVIDER_TIMEOUTS } from "./ProviderConfig.ts"
export type { ModelConfig, ProviderConfig, ProviderTimeouts, ProviderType } from "./ProviderConfig.ts"
export type { SandboxConfig } from "./SandboxConfig.ts"

const MiB = 1024 * 1024

/** Bytes as a plain integer (`1048576`) or with a unit (`10MiB`, `512kB`). */
const bodyLimitBytes = Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PARLEY_BODY_LIMIT").pipe(
  Config.orElse(() => Config.ByteSize("PARLEY_BODY_LIMIT").pipe(Config.map(Number))),
  Config.withDefault(10 * MiB)
)

/** The largest body the gateway fetches for a client (a URL in a message part); plain bytes or with a unit. */
const fetchMaxBytes = Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PARLEY_FETCH_MAX_BYTES").pipe(
  Config.orElse(() => Config.ByteSize("PARLEY_FETCH_MAX_BYTES").pipe(Config.map(Number))),
  Config.withDefault(20 * MiB)
)

const fetchTimeoutMs = Config.Duration("PARLEY_FETCH_TIMEOUT").pipe(
  Config.map(Duration.toMillis),
  Config.withDefault(30_000)
)

const defaultDatabaseUrl = "sqlite:./data/parley.db"

/** Unset or blank means the default. */
const databaseUrl = Config.Redacted("DATABASE_URL").pipe(
  Config.withDefault(Redacted.make(defaultDatabaseUrl)),
  Config.map((url) => Redacted.value(url).trim() === "" ? Redacted.make(defaultDatabaseUrl) : url)
)

/** Providers implied by well-known environment variables, each with its built-in catalog. */
const shortcutProviders = Effect.gen(function*() {
  const openaiKey = yield* Config.option(Config.Redacted("OPENAI_API_KEY"))
  const openaiBaseURL = yield* Config.option(Config.String("OPENAI_BASE_URL"))
  const anthropicKey = yield* Config.option(Config.Redacted("ANTHROPIC_API_KEY"))
  const providers: Array<ProviderConfig> = []
  if (Option.isSome(openaiKey)) {
    providers.push({
      id: "openai",
      type: "openai",
      apiKey: openaiKey.value,
      models: builtinCatalog("openai") ?? [],
      ...Option.match(openaiBaseURL, { onNone: () => ({}), onSome: (baseURL) => ({ baseURL }) })
    })
  }
  if (Option.isSome(anthropicKey)) {
    providers.push({
      id: "anthropic",
      type: "anthropic",
      apiKey: anthropicKey.value,
      models: builtinCatalog("anthropic") ?? []
    })
  }
  return providers
})

/**
 * Every setting parley reads, once at startup, from the environment and the
 * config file: the server, the providers, the tools' outbound limits, the
 * sandboxes and the database. The server and the CLI read the same one.
 */
export class AppConfig extends Context.Service<AppConfig, {
  readonly host: string
  readonly port: number
  readonly bodyLimitBytes: number
  readonly providers: ReadonlyArray<ProviderConfig>
  /** The config file's `mcpServers` (docs/DESIGN.md §9); none without a file. */
  readonly mcpServers: ReadonlyArray<McpServerConfig>
  /** Absolute path of the config file that was read, if any. */
  readonly configFile: string | undefined
  /** Base URL of the partner messaging API (`PARLEY_PARTNER_API_URL`); tool context may name another. */
  readonly partnerApiBaseUrl?: string | undefined
  /** Request-given URLs (browser, webhooks, a partner API named in tool context, files in message parts) may reach private, loopback and link-local addresses (`PARLEY_OUTBOUND_ALLOW_PRIVATE`). */
  readonly outboundAllowPrivate?: boolean | undefined
  /** Hosts those URLs may name whatever they resolve to (`PARLEY_OUTBOUND_ALLOWED_HOSTS`, comma-separated). */
  readonly outboundAllowedHosts?: ReadonlyArray<string> | undefined
  /** One step's tool calls running at once (`PARLEY_TOOL_CONCURRENCY`, default 8); the rest wait their turn. */
  readonly toolConcurrency?: number | undefined
  /** Largest body fetched for a URL a client named in a message part (`PARLEY_FETCH_MAX_BYTES`, default 20 MiB). */
  readonly fetchMaxBytes: number
  /** Longest such fetch, redirects included (`PARLEY_FETCH_TIMEOUT`, default 30 s). */
  readonly fetchTimeoutMs: number
  /** `PARLEY_SANDBOX_*`: the embedded sandboxes' folder, limits and display. */
  readonly sandbox: SandboxConfig
  /** `DATABASE_URL` (default `sqlite:./data/parley.db`); redacted, as a Postgres URL may hold a password. */
  readonly databaseUrl: Redacted.Redacted<string>
}>()("parley/config/AppConfig") {
  static readonly layer = Layer.effect(
    AppConfig,
    Effect.gen(function*() {
      const host = yield* Config.String("HOST").pipe(Config.withDefault("127.0.0.1"))
      const port = yield* Config.Port("PORT").pipe(Config.withDefault(8787))
      const limit = yield* bodyLimitBytes
      const configFile = yield* configFilePath
      const file = Option.isSome(configFile)
        ? yield* loadConfigFile(configFile.value)
        : { providers: [], mcpServers: [] }
      const fromFile = file.providers
      const fileIds = new Set(fromFile.map((provider) => provider.id))
      // An entry in the file wins over an environment shortcut of the same id.
      const fromEnv = (yield* shortcutProviders).filter((provider) => !fileIds.has(provider.id))
      const partnerApi = yield* Config.option(Config.URL("PARLEY_PARTNER_API_URL"))
      const outboundAllowPrivate = yield* Config.Boolean("PARLEY_OUTBOUND_ALLOW_PRIVATE").pipe(
        Config.withDefault(false)
      )
      const outboundAllowedHosts = yield* Config.Array(Schema.Trim, "PARLEY_OUTBOUND_ALLOWED_HOSTS").pipe(
        Config.withDefault([])
      )
      const toolConcurrency = yield* Config.option(
        Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PARLEY_TOOL_CONCURRENCY")
      )
      const fetchLimits = { fetchMaxBytes: yield* fetchMaxBytes, fetchTimeoutMs: yield* fetchTimeoutMs }
      const sandbox = yield* sandboxConfig
      const database = yield* databaseUrl
      return AppConfig.of({
        host,
        port,
        bodyLimitBytes: limit,
        providers: [...fromFile, ...fromEnv],
        mcpServers: file.mcpServers,
        configFile: Option.getOrUndefined(configFile),
        partnerApiBaseUrl: Option.getOrUndefined(Option.map(partnerApi, (url) => url.href)),
        outboundAllowPrivate,
        outboundAllowedHosts: outboundAllowedHosts.filter((host) => host !== ""),
        toolConcurrency: Option.getOrUndefined(toolConcurrency),
        ...fetchLimits,
        sandbox,
        databaseUrl: database
      })
    })
  ).pipe(Layer.provide(NodeFileSystem.layer))

  /**
   * Fixed settings for tests: loopback, an ephemeral port, the default body
   * and fetch limits, no providers unless given, the default sandboxes and an in-memory
   * SQLite database.
   */
  static readonly layerTest = (overrides: Partial<AppConfig["Service"]> = {}) =>
    Layer.succeed(
      AppConfig,
      AppConfig.of({
        host: "127.0.0.1",
        port: 0,
        bodyLimitBytes: 10 * MiB,
        providers: [],
        mcpServers: [],
        configFile: undefined,
        fetchMaxBytes: 20 * MiB,
        fetchTimeoutMs: 30_000,
        sandbox: { limits: {} },
        databaseUrl: Redacted.make("sqlite::memory:"),
        ...overrides
      })
    )
}
