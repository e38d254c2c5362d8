import { Layer } from "effect"
import { Agent } from "../agent/Agent.ts"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { ChatPlanner } from "../chat/ChatPlanner.ts"
import type { AppConfig } from "../config/AppConfig.ts"
import { UsageLedger } from "../ledger/UsageLedger.ts"
import { UsageQueries } from "../ledger/UsageQueries.ts"
import { ModelRegistry } from "../models/ModelRegistry.ts"
import { Pruner } from "../prune/Pruner.ts"
import { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import * as Database from "../store/Database.ts"
import type { ToolRegistry } from "../tools/ToolRegistry.ts"

/** What a gateway is made of beyond its code: `npm start` takes them from the environment, tests and the demo give their own. */
export interface GatewayParts<E> {
  /** Also names the database (`databaseUrl`) and where to listen (`host`, `port`; port 0: any free port). */
  readonly config: Layer.Layer<AppConfig, E>
  readonly tools: Layer.Layer<ToolRegistry>
  /** Default: the embedded bubblewrap backend as configured (`PARLEY_SANDBOX_*`). */
  readonly sandboxes?: Layer.Layer<SandboxProvider, unknown>
  /** No "Listening on …" line (tests and the demo print their own). */
  readonly quiet?: boolean
}

/** The services the routes use, over the configured database. */
export const gatewayServices = <E>(parts: GatewayParts<E>) =>
  ChatPlanner.layer.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        ApiKeys.layer,
        ModelRegistry.layer,
        parts.tools,
        Agent.layer,
        Pruner.layer,
        UsageLedger.layer,
        UsageQueries.layer
      )
    ),
    Layer.provideMerge(parts.sandboxes ?? SandboxProvider.layer),
    Layer.provide(Database.layer),
    Layer.provideMerge(parts.config)
  )
