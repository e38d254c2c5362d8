import { Effect } from "effect"
import { UnknownAllowListEntries, WiderThanAccount } from "../../auth/adminErrors.ts"
import type { Account } from "../../domain/Account.ts"
import { entriesBeyond } from "../../domain/ApiKey.ts"
import type { McpRegistry } from "../../mcp/McpRegistry.ts"
import { serverOf } from "../../mcp/toolNames.ts"
import type { ModelRegistry } from "../../models/ModelRegistry.ts"
import type { ToolRegistry } from "../../tools/ToolRegistry.ts"

export interface AllowLists {
  readonly allowedModels?: ReadonlyArray<string> | undefined
  readonly allowedTools?: ReadonlyArray<string> | undefined
  /** Checked like `allowedTools` (docs/DESIGN.md §10); never bounded by the account. */
  readonly approvalRequired?: ReadonlyArray<string> | undefined
}

/**
 * Allow-list entries checked against the catalog (docs/DESIGN.md §6): `*`,
 * `<provider>/*` of a configured provider, or a model or tool that exists;
 * a tool entry `<server>__…` of a registered MCP server (docs/DESIGN.md §9),
 * whose tools come and go with the server's list.
 * Anything else is a typo the client hears about (400, listing them all).
 */
export const makeCatalogCheck = (
  models: ModelRegistry["Service"],
  tools: ToolRegistry["Service"],
  mcp: McpRegistry["Service"]
) => {
  const modelIds = new Set(models.catalog.map((entry) => entry.id))
  const providers = new Set(models.catalog.map((entry) => entry.id.split("/", 1)[0]!))
  const toolNames = new Set(tools.all.map((tool) => tool.name))
  const knownModel = (entry: string) =>
    entry === "*" || modelIds.has(entry) || (entry.endsWith("/*") && providers.has(entry.slice(0, -2)))
  const knownTool = (entry: string) => {
    const server = serverOf(entry)
    return entry === "*" || toolNames.has(entry) || (server !== undefined && mcp.has(server))
  }

  return (lists: AllowLists): Effect.Effect<void, UnknownAllowListEntries> => {
    const badModels = (lists.allowedModels ?? []).filter((entry) => !knownModel(entry))
    const badTools = [...(lists.allowedTools ?? []), ...(lists.approvalRequired ?? [])]
      .filter((entry) => !knownTool(entry))
    return badModels.length === 0 && badTools.length === 0
      ? Effect.void
      : Effect.fail(new UnknownAllowListEntries({ models: badModels, tools: badTools }))
  }
}

/** A key can only narrow its account (docs/DESIGN.md §6): entries wider than the account's are refused (403). */
export const withinAccount = (lists: AllowLists, account: Account): Effect.Effect<void, WiderThanAccount> => {
  const models = entriesBeyond(lists.allowedModels ?? [], account.allowedModels)
  const tools = entriesBeyond(lists.allowedTools ?? [], account.allowedTools)
  return models.length === 0 && tools.length === 0
    ? Effect.void
    : Effect.fail(new WiderThanAccount({ models, tools }))
}
