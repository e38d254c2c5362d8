import { Context, Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import { makeGateway } from "../../src/app/gateway.ts"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import {
  AppConfig,
  type ConnectionConfig,
  type ModelPricing,
  type ObservabilityConfig,
  type ProviderConfig,
  type ProviderTimeouts
} from "../../src/config/AppConfig.ts"
import { defaultObservability } from "../../src/config/ObservabilityConfig.ts"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import type { KeyStatus } from "../../src/domain/ApiKey.ts"
import type { Limits } from "../../src/domain/Limits.ts"
import type { UsageEvent } from "../../src/domain/UsageEvent.ts"
import { UsageLedger } from "../../src/ledger/UsageLedger.ts"
import { UsageQueries } from "../../src/ledger/UsageQueries.ts"
import type { ObservabilityTaps } from "../../src/observability/observabilityLayer.ts"
import type { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { sandboxTools } from "../../src/tools/sandboxTools.ts"
import type { Tool } from "../../src/tools/Tool.ts"
import { ToolRegistry } from "../../src/tools/ToolRegistry.ts"

/** The provider key the gateway sends upstream; tests check it never leaks. */
export const UPSTREAM_API_KEY = "sk-upstream-secret-4b1d"

export interface TestGateway {
  readonly url: string
  readonly upstream: Upstream
  readonly createKey: (input?: {
    readonly models?: ReadonlyArray<string>
    readonly tools?: ReadonlyArray<string>
    /** Tools that wait for a person's approval (docs/DESIGN.md §10). */
    readonly approve?: ReadonlyArray<string>
    /** docs/DESIGN.md §11. */
    readonly limits?: Limits
    readonly expiresAt?: Date
  }) => Promise<{ readonly id: string; readonly secret: string }>
  readonly setStatus: (id: string, status: KeyStatus) => Promise<void>
  /** Writes the usage ledger's buffer, then reads its rows (newest first). */
  readonly ledgerRows: (filter?: { readonly keyId?: string; readonly limit?: number }) => Promise<Array<UsageEvent>>
  /** Runs an effect against the gateway's own services (the usage queries, the ledger). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, UsageLedger | UsageQueries>) => Promise<A>
  /** A service of the running gateway (e.g. its McpRegistry). */
  readonly service: <I, S>(tag: Context.Key<I, S>) => S
  readonly close: () => Promise<void>
}

export interface GatewayOptions {
  readonly tools?: ReadonlyArray<Tool>
  readonly bodyLimitBytes?: number
  /** Default: no connection cap, a 10 s headers timeout, a 75 s keep-alive. */
  readonly connections?: ConnectionConfig
  readonly contextWindow?: number
  /** The most `test/m1` can generate, as a catalog states it. */
  readonly maxOutputTokens?: number
  /** Default: a fresh in-memory SQLite. */
  readonly databaseUrl?: string
  /** `PARLEY_TOOL_CONCURRENCY` (default 8). */
  readonly toolConcurrency?: number
  /** A sandbox provider for the gateway (over the gateway's database if it needs one); its `bash` and `computer` tools join `tools`. */
  readonly sandboxes?: Layer.Layer<SandboxProvider, unknown, SqlClient.SqlClient>
  /** How long the upstream may stay silent (default: the production defaults). */
  readonly providerTimeouts?: ProviderTimeouts
  /** Further settings (the outbound policy's, the admin token, introspection…). */
  readonly config?: Partial<AppConfig["Service"]>
  /** Metrics tokens, trace content…: over the defaults (`/metrics` closed, no traces). */
  readonly observability?: Partial<ObservabilityConfig>
  /** Log lines and spans captured (the gateway is quiet otherwise). */
  readonly observe?: ObservabilityTaps
  /** `pricing` of model `test/m1`. */
  readonly pricing?: ModelPricing
  /** More providers beside `test` (another type's, against a scripted upstream of its own wire). */
  readonly providers?: ReadonlyArray<ProviderConfig>
}

/**
 * The real gateway (routes, middleware, services) on an ephemeral port, over
 * a fresh in-memory SQLite and a scripted upstream provider `test` with models
 * `test/m1` and `test/m2`.
 */
export const startGateway = async (options: GatewayOptions = {}): Promise<TestGateway> => {
  const upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY })
  const config = AppConfig.layerTest({
    ...options.config,
    ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
    ...(options.toolConcurrency === undefined ? {} : { toolConcurrency: options.toolConcurrency }),
    ...(options.connections === undefined ? {} : { connections: options.connections }),
    databaseUrl: Redacted.make(options.databaseUrl ?? "sqlite::memory:"),
    observability: { ...defaultObservability, ...options.observability },
    providers: [{
      id: "test",
      type: "openai-compatible",
      baseURL: upstream.url,
      apiKey: Redacted.make(UPSTREAM_API_KEY),
      ...(options.providerTimeouts === undefined ? {} : { timeouts: options.providerTimeouts }),
      models: [
        {
          id: "m1",
          name: "Model One",
          categories: ["chat"],
          contextWindow: options.contextWindow ?? 128_000,
          ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
          ...(options.pricing === undefined ? {} : { pricing: options.pricing })
        },
        { id: "m2", name: "Model Two", categories: ["chat", "tools"] }
      ]
    }, ...(options.providers ?? [])]
  })
  const app = makeGateway({
    config,
    tools: options.sandboxes === undefined
      ? ToolRegistry.layerTest(options.tools ?? [])
      : Layer.effect(
        ToolRegistry,
        Effect.map(sandboxTools, (tools) => ToolRegistry.make([...(options.tools ?? []), ...tools]))
      ),
    ...(options.sandboxes === undefined ? {} : { sandboxes: options.sandboxes }),
    quiet: true,
    ...(options.observe === undefined ? {} : { observe: options.observe })
  })
  const runtime = ManagedRuntime.make(app)
  const context = await runtime.context()
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  const keys = Context.get(context, ApiKeys)

  return {
    url: `http://127.0.0.1:${address.port}`,
    upstream,
    createKey: async (input = {}) => {
      const { key, secret } = await Effect.runPromise(keys.create({
        name: "test",
        allowedModels: input.models ?? ["*"],
        allowedTools: input.tools ?? ["*"],
        approvalRequired: input.approve,
        limits: input.limits,
        expiresAt: input.expiresAt
      }))
      return { id: key.id, secret }
    },
    setStatus: (id, status) => Effect.runPromise(Effect.asVoid(Effect.orDie(keys.setStatus(id, status)))),
    ledgerRows: (filter = {}) =>
      runtime.runPromise(Effect.gen(function*() {
        yield* (yield* UsageLedger).flush
        const queries = yield* UsageQueries
        return [...yield* queries.requests({ limit: 500, ...filter })]
      })),
    run: (effect) => runtime.runPromise(effect),
    service: (tag) => Context.get(context as Context.Context<any>, tag),
    close: async () => {
      await runtime.dispose()
      await upstream.close()
    }
  }
}
