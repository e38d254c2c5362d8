import { Effect } from "effect"
import { UnknownAllowListEntries, WiderThanAccount } from "../../auth/adminErrors.ts"
import type { Account } from "../../domain/Account.ts"
import { entriesBeyond } from "../../domain/ApiKey.ts"
import type { McpRegistry } from "../../mcp/McpRegistry.ts"
import { mcpToolName, serverOf } from "../../mcp/toolNames.ts"
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
 * `<provider>/*` of a configured provider, a model or tool that exists, or an
 * MCP server's `<server>__*` or `<server>__<tool>` (§9). Anything else is a
 * typo the client hears about (400, listing them all). A tool of a server
 * that cannot list its tools now is taken on trust: it cannot be told apart
 * from a typo until the server answers.
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
  const knownTool = (entry: string): Effect.Effect<boolean> => {
    if (entry === "*" || toolNames.has(entry)) return Effect.succeed(true)
    const server = serverOf(entry)
    if (server === undefined || !mcp.has(server)) return Effect.succeed(false)
    if (entry === mcpToolName(server, "*")) return Effect.succeed(true)
    return Effect.match(mcp.toolsOf(server), {
      onFailure: () => true,
      onSuccess: (listed) => listed.tools.some((tool) => tool.name === entry) || listed.heldBack.includes(entry)
    })
  }

  return (lists: AllowLists): Effect.Effect<void, UnknownAllowListEntries> =>
    Effect.gen(function*() {
      const badModels = (lists.allowedModels ?? []).filter((entry) => !knownModel(entry))
      const badTools = yield* Effect.filter(
        [...(lists.allowedTools ?? []), ...(lists.approvalRequired ?? [])],
        (entry) => Effect.map(knownTool(entry), (known) => !known)
      )
      if (badModels.length > 0 || badTools.length > 0) {
        return yield* new UnknownAllowListEntries({ models: badModels, tools: badTools })
      }
    })
}

/** A key can only narrow its account (docs/DESIGN.md §6): entries wider than the account's are refused (403). */
export const withinAccount = (lists: AllowLists, account: Account): Effect.Effect<void, WiderThanAccount> => {
  const models = entriesBeyond(lists.allowedModels ?? [], account.allowedModels)
  const tools = entriesBeyond(lists.allowedTools ?? [], account.allowedTools)
  return models.length === 0 && tools.length === 0
    ? Effect.void
    : Effect.fail(new WiderThanAccount({ models, tools }))
}
