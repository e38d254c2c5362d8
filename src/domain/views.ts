import type { Account } from "./Account.ts"
import type { ApiKey } from "./ApiKey.ts"
import type { Limits } from "./Limits.ts"
import type { ChatProtocolName } from "./protocols.ts"
import type { UsageEvent } from "./UsageEvent.ts"

// What the admin API and the CLI's --json show: never a secret, a hash or a password hash. The console reads these
// types with `import type` (erased from its bundle), so a change here is typechecked against its pages too.

export const accountView = (account: Account) => ({
  id: account.id,
  name: account.name,
  email: account.email,
  status: account.status,
  allowedModels: account.allowedModels,
  allowedTools: account.allowedTools,
  approvalRequired: account.approvalRequired,
  limits: account.limits,
  createdAt: account.createdAt.toISOString()
})

export type AccountView = ReturnType<typeof accountView>

export const keyView = (key: ApiKey) => ({
  id: key.id,
  accountId: key.accountId,
  name: key.name,
  prefix: key.prefix,
  status: key.status,
  allowedModels: key.allowedModels,
  allowedTools: key.allowedTools,
  approvalRequired: key.approvalRequired,
  limits: key.limits,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  expiresAt: key.expiresAt?.toISOString() ?? null
})

export type KeyView = ReturnType<typeof keyView>

/** One limit's current use (docs/DESIGN.md §6): `resetAt` is when a unit next frees, absent when none is used or never. */
export interface Consumed {
  readonly used: number
  readonly limit: number
  readonly resetAt?: string
}

/**
 * A scope's use of its configured limits, one entry per limit counted; an
 * open record, so the budgets (`tokensPerDay`, `costPerMonthUsd`) join the
 * request limits under their own names.
 */
export type Consumption = Partial<Record<keyof Limits, Consumed>>

/** GET …/limits of a key or an account (docs/DESIGN.md §6, §11): its limits and their current use. */
export interface LimitsStatus {
  readonly limits: Limits
  readonly consumption: Consumption
}

/** A built-in tool, or an MCP server's tool or `<server>__*` (category `mcp`, `server` its id). */
export interface CatalogTool {
  readonly name: string
  readonly description: string
  readonly category: string
  readonly server?: string
}

/** GET /admin/v1/catalog: what an allow-list may name (docs/DESIGN.md §6). */
export interface AdminCatalog {
  readonly models: ReadonlyArray<{ readonly id: string; readonly name: string }>
  readonly tools: ReadonlyArray<CatalogTool>
}

/**
 * One group of usage, the fields of docs/DESIGN.md §6. `bucket` is the start
 * of the hour or day (ISO 8601, UTC), or of the window when grouped by model
 * or key; `errors` counts the outcomes `error` and `rejected`; `costUsd` is
 * null when no row of the group has a cost.
 */
export interface UsageRow {
  readonly bucket: string
  readonly keyId?: string
  readonly model?: string
  readonly requests: number
  readonly errors: number
  readonly inputTokens: number
  readonly outputTokens: number
  readonly totalTokens: number
  readonly reasoningTokens: number
  readonly cachedInputTokens: number
  readonly toolCalls: number
  readonly costUsd: number | null
}

/** A ledger row as GET /admin/v1/requests shows it (docs/DESIGN.md §7): the row's facts, its time in ISO 8601. */
export type RequestView = Omit<UsageEvent, "time"> & { readonly time: string }

/**
 * A key's kept run as GET /admin/v1/keys/{id}/runs shows it (docs/DESIGN.md §16): its chat id, the door it came in
 * by (which frames its replays), `running`, or `stopped` (a stop ended it) or `ended`; `cut` when it outgrew what a
 * stream keeps; times in ISO 8601.
 */
export interface KeptRunView {
  readonly id: string
  readonly protocol: ChatProtocolName
  readonly status: "running" | "ended" | "stopped"
  readonly cut: boolean
  readonly startedAt: string
  readonly endedAt: string | null
}

/** A sandbox as GET /admin/v1/sandboxes shows it; `accountId` null for the operator's. */
export interface SandboxView {
  readonly id: string
  readonly accountId: string | null
  readonly desktop: boolean
  readonly network: boolean
  readonly createdAt: string
  readonly owner: "account" | "key"
  /** The key that created it (owner `key`). */
  readonly keyId?: string
  /** The desktop's size, when it has one. */
  readonly display?: { readonly width: number; readonly height: number }
  /** Where it lives (`PARLEY_SANDBOX_BACKEND` of the gateway that made it). */
  readonly backend: "local" | "docker"
  /**
   * `local`: the instance holding its workspace (`PARLEY_INSTANCE_ID`), the only one that can use or delete it;
   * null for `docker`, which every instance reaches.
   */
  readonly instance: string | null
  /** When a request last used it; unused for PARLEY_SANDBOX_IDLE, it is reclaimed. */
  readonly usedAt: string
}

/** A tool of an MCP server by its parley name; a held-back one waits for the operator's refresh. */
export interface McpServerToolView {
  readonly name: string
  readonly heldBack: boolean
}

/**
 * A registered MCP server as the admin API shows it (docs/DESIGN.md §9):
 * header names, never values; its tools from the cached list (or a list call
 * now), or why it cannot list them.
 */
export interface McpServerView {
  readonly id: string
  /** `config`: the config file's, read-only here; `api`: registered through the admin API. */
  readonly source: "config" | "api"
  readonly transport: "http" | "stdio"
  /** null for a stdio server. */
  readonly url: string | null
  readonly headerNames: ReadonlyArray<string>
  readonly enabled: boolean
  readonly status: "reachable" | "unreachable" | "disabled"
  /** Why it is unreachable, free of credentials. */
  readonly reason?: string
  readonly tools: ReadonlyArray<McpServerToolView>
}

/** A model provider as the admin API shows it (docs/DESIGN.md §15): its models, and whether routes skip it now. */
export interface ProviderView {
  readonly id: string
  /** `<provider>/<model>` ids. */
  readonly models: ReadonlyArray<string>
  /** Failures in a row that routes counted, as every instance sees them; 0: none. */
  readonly failures: number
  /** ISO-8601: until when routes try it last; null: they do not. */
  readonly cooledUntil: string | null
}

/** A route's target as the admin API shows it: its model, and its provider's state (cooldowns are per provider). */
export interface RouteTargetView {
  readonly model: string
  readonly weight: number
  readonly provider: string
  /** Its provider's failures in a row, as `ProviderView.failures`. */
  readonly failures: number
  /** Its provider's, as `ProviderView.cooledUntil`. */
  readonly cooledUntil: string | null
}

/** A route (a `type: "route"` provider's model) as the admin API shows it. */
export interface RouteView {
  readonly id: string
  readonly strategy: "fallback" | "loadbalance"
  /** In their configured order. */
  readonly targets: ReadonlyArray<RouteTargetView>
  readonly firstChunkTimeoutMs: number | null
}
