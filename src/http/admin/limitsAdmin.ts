import { Effect } from "effect"
import type { Principal } from "../../api/AdminAuthentication.ts"
import { AccountNotFound } from "../../auth/accountErrors.ts"
import type { Accounts } from "../../auth/Accounts.ts"
import type { ApiKeys } from "../../auth/ApiKeys.ts"
import type { Limits } from "../../domain/Limits.ts"
import type { LimitsStatus } from "../../domain/views.ts"
import type { Budgets } from "../../governance/Budgets.ts"
import type { Limiter, Scope } from "../../governance/Limiter.ts"
import { mayManage, visibleKey } from "./access.ts"
import { ok } from "./adminViews.ts"

/**
 * GET /admin/v1/keys/{id}/limits and /accounts/{id}/limits (docs/DESIGN.md
 * §6): the configured limits and how much of each is used now, read from the
 * counters without counting. Another account's key or account is not found.
 */
export const makeLimitsAdmin = (
  keys: ApiKeys["Service"],
  accounts: Accounts["Service"],
  limiter: Limiter["Service"],
  budgets: Budgets["Service"]
) => {
  const status = (scope: Scope, id: string, limits: Limits) =>
    Effect.map(
      Effect.all([limiter.consumption(scope, id, limits), budgets.consumption(scope, id, limits)]),
      ([requests, spent]) => ok({ limits, consumption: { ...requests, ...spent } } satisfies LimitsStatus)
    )
  return {
    key: (principal: Principal, id: string) =>
      Effect.flatMap(visibleKey(keys, principal, id), (key) => status("key", key.id, key.limits)),
    account: (principal: Principal, id: string) =>
      mayManage(principal, id)
        ? Effect.flatMap(accounts.get(id), (account) => status("account", account.id, account.limits))
        : Effect.fail(new AccountNotFound({ id }))
  }
}
