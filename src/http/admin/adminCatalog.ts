import { Effect } from "effect"
import type { Principal } from "../../api/AdminAuthentication.ts"
import type { Accounts } from "../../auth/Accounts.ts"
import { entriesBeyond } from "../../domain/ApiKey.ts"
import type { AdminCatalog, CatalogTool } from "../../domain/views.ts"
import type { McpRegistry } from "../../mcp/McpRegistry.ts"
import { mcpToolName } from "../../mcp/toolNames.ts"
import type { ModelRegistry } from "../../models/ModelRegistry.ts"
import type { ToolRegistry } from "../../tools/ToolRegistry.ts"
import { ok } from "./adminViews.ts"

/**
 * Each MCP server's `<server>__*` and the tools it lists now (docs/DESIGN.md
 * §9); a server that cannot list them offers its pattern alone.
 */
const mcpTools = (mcp: McpRegistry["Service"]) =>
  Effect.map(
    Effect.forEach(mcp.servers(), ({ id }) =>
      Effect.map(
        Effect.orElseSucceed(mcp.toolsOf(id), () => ({ tools: [], heldBack: [] })),
        ({ tools }): ReadonlyArray<CatalogTool> => [
          { name: mcpToolName(id, "*"), description: `Every tool of MCP server ${id}`, category: "mcp", server: id },
          ...tools.map((tool) => ({ name: tool.name, description: tool.description, category: "mcp", server: id }))
        ]
      ), { concurrency: "unbounded" }),
    (lists) => lists.flat()
  )

/**
 * `GET /admin/v1/catalog`: what the console's allow-list editor offers. The
 * operator sees every model and tool; a session only what its account admits,
 * since a key can only narrow its account (docs/DESIGN.md §6).
 */
export const makeAdminCatalog = (
  models: ModelRegistry["Service"],
  tools: ToolRegistry["Service"],
  mcp: McpRegistry["Service"],
  accounts: Accounts["Service"]
) => {
  const allModels = models.catalog.map(({ id, name }) => ({ id, name }))
  const builtIn: ReadonlyArray<CatalogTool> = tools.all.map(({ name, description, category }) => ({
    name,
    description,
    category
  }))
  return (principal: Principal) =>
    Effect.gen(function*() {
      const allTools = [...builtIn, ...(yield* mcpTools(mcp))]
      if (principal._tag === "Operator") return ok({ models: allModels, tools: allTools } satisfies AdminCatalog)
      const account = yield* accounts.get(principal.accountId)
      const admits = (bound: ReadonlyArray<string>) => (entry: string) => entriesBeyond([entry], bound).length === 0
      return ok(
        {
          models: allModels.filter((model) => admits(account.allowedModels)(model.id)),
          tools: allTools.filter((tool) => admits(account.allowedTools)(tool.name))
        } satisfies AdminCatalog
      )
    })
}
