import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Config, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { resolve } from "node:path"
import { configFilePath, loadConfigFile } from "./ConfigFile.ts"
import { asInvalidConfiguration, InvalidConfiguration, problemCollector } from "./configProblems.ts"
import { type ConnectionConfig, connectionConfig, DEFAULT_KEEPALIVE_TIMEOUT } from "./ConnectionConfig.ts"
import { databaseUrl, dataDirOf, defaultDatabaseUrl } from "./databaseUrl.ts"
import {
  bodyLimitBytes,
  DEFAULT_RESPONSE_RETENTION,
  defaultStreams,
  fetchMaxBytes,
  fetchTimeoutMs,
  keyCacheTtlMs,
  ledgerDays,
  MiB,
  responseRetentionMs,
  secretKey,
  streamSettings
} from "./envSettings.ts"
import { defaultInstanceId, defaultSandboxDir, instanceIdSetting } from "./instanceId.ts"
import type { McpServerConfig } from "./McpServerConfig.ts"
import { defaultObservability, type ObservabilityConfig, observabilityConfig } from "./ObservabilityConfig.ts"
import { corsOrigins, defaultOperations, type OperationsConfig, shutdownGraceMs } from "./OperationsConfig.ts"
import { optionalSecret } from "./optionalSecret.ts"
import type { ProviderConfig } from "./ProviderConfig.ts"
import { resolveRoutes, type RouteConfig } from "./RouteConfig.ts"
import { type SandboxConfig, sandboxConfig } from "./SandboxConfig.ts"
import { shortcutProviders } from "./shortcutProviders.ts"

export { InvalidConfiguration } from "./configProblems.ts"
export type { ConnectionConfig } from "./ConnectionConfig.ts"
export type { McpServerConfig } from "./McpServerConfig.ts"
export type { LogFormat, LogLevelName, ObservabilityConfig } from "./ObservabilityConfig.ts"
export type { OperationsConfig } from "./OperationsConfig.ts"
export { DEFAULT_PROVIDER_TIMEOUTS } from "./ProviderConfig.ts"
export type { ModelConfig, ModelPricing, ProviderConfig, ProviderTimeouts, ProviderType } from "./ProviderConfig.ts"
export type { RouteConfig, RouteStrategy, RouteTargetConfig } from "./RouteConfig.ts"
export type { SandboxConfig } from "./SandboxConfig.ts"

/**
 * Every setting parley reads, once at startup, from the environment and the
 * config file: the server, the providers, the tools' outbound limits, the
 * sandboxes and the database. The server and the CLI read the same one.
 */
export class AppConfig extends Context.Service<AppConfig, {
  readonly host: string
  readonly port: number
  readonly bodyLimitBytes: number
  /** `PARLEY_MAX_CONNECTIONS`, `PARLEY_HEADERS_TIMEOUT`: what the server holds of its clients' connections. */
  readonly connections: ConnectionConfig
  /** `PARLEY_SHUTDOWN_GRACE`, `PARLEY_CORS_ORIGINS` (docs/DESIGN.md §8). */
  readonly operations: OperationsConfig
  readonly providers: ReadonlyArray<ProviderConfig>
  /** The config file's `type: "route"` providers' models, checked against `providers` (docs/DESIGN.md §15). */
  readonly routes: ReadonlyArray<RouteConfig>
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
  /**
   * Kept streams of resumable runs (docs/DESIGN.md §16): kept `retentionMs` after the run ended
   * (`PARLEY_STREAM_RETENTION`, default 10 min), at most `maxBytes` each (`PARLEY_STREAM_MAX_BYTES`, default 8 MiB).
   */
  readonly streams: { readonly retentionMs: number; readonly maxBytes: number }
  /** `PARLEY_SANDBOX_*`: the embedded sandboxes' folder, limits and display. */
  readonly sandbox: SandboxConfig
  /** `DATABASE_URL` (default `sqlite:./data/parley.db`); redacted, as a Postgres URL may hold a password. */
  readonly databaseUrl: Redacted.Redacted<string>
  /** Where parley keeps its own files: the SQLite database's folder, else `./data` (absolute). */
  readonly dataDir: string
  /** `REDIS_URL`: where limits are counted across instances (docs/DESIGN.md §11); unset: the SQL store. */
  readonly redisUrl?: Redacted.Redacted<string> | undefined
  /** `PARLEY_ADMIN_TOKEN`: the operator's bearer token for /admin/v1; unset: no operator access over HTTP. */
  readonly adminToken?: Redacted.Redacted<string> | undefined
  /** `PARLEY_SECRET_KEY` (base64, 32+ bytes); unset: generated into `dataDir` (auth/SecretKey.ts). */
  readonly secretKey?: Redacted.Redacted<string> | undefined
  /** `PARLEY_KEY_CACHE_TTL` (default 1 s, at most 5 s): how long a verified key is trusted without asking the database. */
  readonly keyCacheTtlMs?: number | undefined
  /** `PARLEY_AUTH_INTROSPECTION_URL`: RFC 7662 endpoint for tokens that are not local keys (docs/DESIGN.md §6). */
  readonly introspectionUrl?: string | undefined
  /** `PARLEY_AUTH_INTROSPECTION_TOKEN`: parley's bearer token at that endpoint. */
  readonly introspectionToken?: Redacted.Redacted<string> | undefined
  /** `LOG_*`, `PARLEY_METRICS_*`, `OTEL_*`: logs, metrics and traces (docs/DESIGN.md §8). */
  readonly observability: ObservabilityConfig
  /** Days a usage ledger row is kept (`PARLEY_LEDGER_DAYS`, default 90). */
  readonly ledgerDays: number
  /** How long a stored response of `POST /v1/responses` is kept (`PARLEY_RESPONSE_RETENTION`, default 30 days). */
  readonly responseRetentionMs: number
  /**
   * `PARLEY_INSTANCE_ID`: this instance among those sharing one database; its
   * sandboxes record it. Default: the host name and a hash of the sandbox folder
   * (`config/instanceId.ts`).
   */
  readonly instanceId: string
}>()("parley/config/AppConfig") {
  static readonly layer = Layer.effect(
    AppConfig,
    Effect.gen(function*() {
      // Every setting is read even after a bad one, so startup names all problems at once.
      const { done, read } = problemCollector()
      const host = yield* read(Config.String("HOST").pipe(Config.withDefault("127.0.0.1")), "")
      const port = yield* read(Config.Port("PORT").pipe(Config.withDefault(8787)), 0)
      const limit = yield* read(bodyLimitBytes, 0)
      const connections = yield* read(connectionConfig, {
        maxConnections: undefined,
        headersTimeoutMs: 0,
        keepAliveTimeoutMs: 0
      })
      const operations: OperationsConfig = {
        shutdownGraceMs: yield* read(shutdownGraceMs, defaultOperations.shutdownGraceMs),
        corsOrigins: yield* read(corsOrigins, defaultOperations.corsOrigins)
      }
      const configFile = yield* read(configFilePath, Option.none())
      const empty = { providers: [], mcpServers: [], routes: [] }
      const file = Option.isSome(configFile) ? yield* read(loadConfigFile(configFile.value), empty) : empty
      const fromFile = file.providers
      const fileIds = new Set([...fromFile, ...file.routes.map((route) => route.entry)].map((provider) => provider.id))
      // An entry in the file wins over an environment shortcut of the same id.
      const fromEnv = (yield* read(shortcutProviders, [])).filter((provider) => !fileIds.has(provider.id))
      const routes = resolveRoutes(file.routes, [...fromFile, ...fromEnv])
      if (routes.problems.length > 0) {
        yield* read(Effect.fail(new InvalidConfiguration({ problems: routes.problems })), undefined)
      }
      const partnerApi = yield* read(Config.option(Config.URL("PARLEY_PARTNER_API_URL")), Option.none())
      const outboundAllowPrivate = yield* read(
        Config.Boolean("PARLEY_OUTBOUND_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
        false
      )
      const outboundAllowedHosts = yield* read(
        Config.Array(Schema.Trim, "PARLEY_OUTBOUND_ALLOWED_HOSTS").pipe(Config.withDefault([])),
        []
      )
      const toolConcurrency = yield* read(
        Config.option(Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PARLEY_TOOL_CONCURRENCY")),
        Option.none()
      )
      const fetchLimits = {
        fetchMaxBytes: yield* read(fetchMaxBytes, 0),
        fetchTimeoutMs: yield* read(fetchTimeoutMs, 0)
      }
      const streams = yield* read(streamSettings, defaultStreams)
      const sandbox = yield* read(sandboxConfig, { limits: {} })
      const database = yield* read(databaseUrl, Redacted.make(defaultDatabaseUrl))
      const keyCache = yield* read(keyCacheTtlMs, undefined)
      const introspectionUrl = yield* read(Config.option(Config.URL("PARLEY_AUTH_INTROSPECTION_URL")), Option.none())
      const adminToken = yield* read(optionalSecret("PARLEY_ADMIN_TOKEN"), undefined)
      const redisUrl = yield* read(optionalSecret("REDIS_URL"), undefined)
      const secret = yield* read(secretKey, undefined)
      const introspectionToken = yield* read(optionalSecret("PARLEY_AUTH_INTROSPECTION_TOKEN"), undefined)
      const observability = yield* read(observabilityConfig, defaultObservability)
      const keepDays = yield* read(ledgerDays, 90)
      const responseRetention = yield* read(responseRetentionMs, 0)
      const instanceId = yield* read(Config.option(instanceIdSetting), Option.none())
      return yield* done(AppConfig.of({
        host,
        port,
        bodyLimitBytes: limit,
        connections,
        operations,
        providers: [...fromFile, ...fromEnv],
        routes: routes.routes,
        mcpServers: file.mcpServers,
        configFile: Option.getOrUndefined(configFile),
        partnerApiBaseUrl: Option.getOrUndefined(Option.map(partnerApi, (url) => url.href)),
        outboundAllowPrivate,
        outboundAllowedHosts: outboundAllowedHosts.filter((host) => host !== ""),
        toolConcurrency: Option.getOrUndefined(toolConcurrency),
        ...fetchLimits,
        streams,
        sandbox,
        databaseUrl: database,
        dataDir: dataDirOf(database),
        adminToken,
        redisUrl,
        secretKey: secret,
        keyCacheTtlMs: keyCache,
        introspectionUrl: Option.getOrUndefined(Option.map(introspectionUrl, (url) => url.href)),
        introspectionToken,
        observability,
        ledgerDays: keepDays,
        responseRetentionMs: responseRetention,
        instanceId: Option.getOrElse(instanceId, () => defaultInstanceId(sandbox.root ?? defaultSandboxDir))
      }))
    }).pipe(Effect.mapError(asInvalidConfiguration))
  ).pipe(Layer.provide(NodeFileSystem.layer))

  /**
   * Fixed settings for tests: loopback, an ephemeral port, the default body
   * and fetch limits, no connection cap and the default headers and keep-alive timeouts, no providers unless given, the default sandboxes and an in-memory
   * SQLite database.
   */
  static readonly layerTest = (overrides: Partial<AppConfig["Service"]> = {}) =>
    Layer.succeed(
      AppConfig,
      AppConfig.of({
        host: "127.0.0.1",
        port: 0,
        bodyLimitBytes: 10 * MiB,
        connections: {
          maxConnections: undefined,
          headersTimeoutMs: 10_000,
          keepAliveTimeoutMs: Duration.toMillis(DEFAULT_KEEPALIVE_TIMEOUT)
        },
        operations: defaultOperations,
        providers: [],
        routes: [],
        mcpServers: [],
        configFile: undefined,
        fetchMaxBytes: 20 * MiB,
        fetchTimeoutMs: 30_000,
        streams: defaultStreams,
        sandbox: { limits: {} },
        databaseUrl: Redacted.make("sqlite::memory:"),
        dataDir: resolve("./data"),
        // A fresh key, so tests never write `secret.key`.
        secretKey: Redacted.make(randomBytes(32).toString("base64")),
        observability: defaultObservability,
        ledgerDays: 90,
        responseRetentionMs: Duration.toMillis(DEFAULT_RESPONSE_RETENTION),
        instanceId: defaultInstanceId(overrides.sandbox?.root ?? defaultSandboxDir),
        ...overrides
      })
    )
}
