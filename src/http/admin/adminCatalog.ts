import { Effect } from "effect"
import type { Principal } from "../../api/AdminAuthentication.ts"
import type { Accounts } from "../../auth/Accounts.ts"
import { entriesBeyond } from "../../domain/ApiKey.ts"
import type { ModelRegistry } from "../../models/ModelRegistry.ts"
import type { ToolRegistry } from "../../tools/ToolRegistry.ts"
import { ok } from "./adminViews.ts"

/**
 * `GET /admin/v1/catalog`: what the console's allow-list editor offers. The
 * operator sees every model and tool; a session only what its account admits,
 * since a key can only narrow its account (docs/DESIGN.md §6).
 */
export const makeAdminCatalog = (
  models: ModelRegistry["Service"],
  tools: ToolRegistry["Service"],
  accounts: Accounts["Service"]
) => {
  const allModels = models.catalog.map(({ id, name }) => ({ id, name }))
  const allTools = tools.all.map(({ name, description }) => ({ name, description }))
  return (principal: Principal) =>
    principal._tag === "Operator"
      ? Effect.succeed(ok({ models: allModels, tools: allTools }))
      : Effect.map(accounts.get(principal.accountId), (account) => {
        const admits = (bound: ReadonlyArray<string>) => (entry: string) => entriesBeyond([entry], bound).length === 0
        return ok({
          models: allModels.filter((model) => admits(account.allowedModels)(model.id)),
          tools: allTools.filter((tool) => admits(account.allowedTools)(tool.name))
        })
      })
}
