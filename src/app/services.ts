import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { Agent } from "../agent/Agent.ts"
import { ToolConcurrency } from "../agent/runTools.ts"
import { Accounts } from "../auth/Accounts.ts"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { SecretKey } from "../auth/SecretKey.ts"
import { Sessions } from "../auth/Sessions.ts"
import { SignInThrottle } from "../auth/SignInThrottle.ts"
import { ChatPlanner } from "../chat/ChatPlanner.ts"
import { Governance } from "../chat/Governance.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { Admission } from "../governance/Admission.ts"
import { Approvals } from "../governance/Approvals.ts"
import { Budgets } from "../governance/Budgets.ts"
import { Limiter } from "../governance/Limiter.ts"
import { KeptRuns } from "../http/KeptRuns.ts"
import { UsageLedger } from "../ledger/UsageLedger.ts"
import { UsageQueries } from "../ledger/UsageQueries.ts"
import { McpRegistry } from "../mcp/McpRegistry.ts"
import { McpServers } from "../mcp/McpServers.ts"
import { ModelRegistry } from "../models/ModelRegistry.ts"
import { ProviderCooldowns } from "../models/ProviderCooldowns.ts"
import type { ObservabilityTaps } from "../observability/observabilityLayer.ts"
import { Pruner } from "../prune/Pruner.ts"
import { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import { configuredRunStreams } from "../store/configuredRunStreams.ts"
import * as Database from "../store/Database.ts"
import { StoredResponses } from "../store/StoredResponses.ts"
import { StoreHealth } from "../store/StoreHealth.ts"
import type { ToolRegistry } from "../tools/ToolRegistry.ts"

/** What a gateway is made of beyond its code: `npm start` takes them from the environment, tests and the demo give their own. */
export interface GatewayParts<E> {
  /** Also names the database (`databaseUrl`) and where to listen (`host`, `port`; port 0: any free port). */
  readonly config: Layer.Layer<AppConfig, E>
  readonly tools: Layer.Layer<ToolRegistry>
  /**
   * Default: the embedded bubblewrap backend as configured (`PARLEY_SANDBOX_*`), over the gateway's database; one
   * given here may bring a database of its own (`Database.layerFromUrl`), migrated as the gateway starts.
   */
  readonly sandboxes?: Layer.Layer<SandboxProvider, unknown, SqlClient.SqlClient>
  /** No "Listening on …" line (tests and the demo print their own). */
  readonly quiet?: boolean
  /** Logs and spans captured instead of written and exported (tests). */
  readonly observe?: ObservabilityTaps
}

const toolConcurrency = Layer.effect(
  ToolConcurrency,
  Effect.map(Effect.service(AppConfig), (config) => config.toolConcurrency ?? ToolConcurrency.defaultValue())
)

/** Accounts and console sessions (docs/DESIGN.md §6), and tool approvals (§10): what PARLEY_SECRET_KEY signs. */
const accountServices = Layer.merge(Sessions.layer.pipe(Layer.provide(SignInThrottle.layer)), Approvals.layer).pipe(
  Layer.provideMerge(Layer.merge(Accounts.layer, SecretKey.layer))
)

/** The MCP servers of the config file and of the store (docs/DESIGN.md §9); PARLEY_SECRET_KEY seals the stored headers. */
const mcpServices = McpServers.layer.pipe(Layer.provideMerge(McpRegistry.layer), Layer.provide(SecretKey.layer))

/** The services the routes use, over the configured database. */
export const gatewayServices = <E>(parts: GatewayParts<E>) =>
  Layer.merge(ChatPlanner.layer, Governance.layer).pipe(
    // docs/DESIGN.md §11: what chat runs and /mcp tool calls are admitted by.
    Layer.provideMerge(Admission.layer),
    Layer.provideMerge(
      Layer.mergeAll(
        ApiKeys.layerConfigured,
        accountServices,
        ModelRegistry.layer,
        parts.tools,
        mcpServices,
        Agent.layer.pipe(Layer.provideMerge(ProviderCooldowns.layer)),
        Pruner.layer,
        toolConcurrency,
        UsageLedger.layer,
        UsageQueries.layer,
        StoreHealth.layer,
        StoredResponses.layer,
        Limiter.layer,
        Budgets.layer,
        // docs/DESIGN.md §16: resumable runs' kept streams, and their stops across instances.
        KeptRuns.layer.pipe(Layer.provide(configuredRunStreams))
      )
    ),
    Layer.provideMerge(parts.sandboxes ?? SandboxProvider.layer),
    // Merged: the routes subscribe to the database's change feed too (http/catalogHandlers.ts).
    Layer.provideMerge(Database.layerListening),
    Layer.provideMerge(parts.config)
  )
