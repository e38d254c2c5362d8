import { Effect } from "effect"
import type { Principal } from "../../api/AdminAuthentication.ts"
import { OperatorOnly } from "../../auth/adminErrors.ts"
import type { ApiKeys } from "../../auth/ApiKeys.ts"
import { KeyNotFound } from "../../auth/authErrors.ts"

/** Who may do what on /admin/v1 (docs/DESIGN.md §6). */

export const requireOperator = (principal: Principal): Effect.Effect<void, OperatorOnly> =>
  principal._tag === "Operator" ? Effect.void : Effect.fail(new OperatorOnly())

/** The account a listing covers: a session's own, whatever it asks; the operator's choice (undefined: all). */
export const accountScope = (principal: Principal, requested: string | undefined): string | undefined =>
  principal._tag === "Account" ? principal.accountId : requested

/** Whether the principal may see things of `accountId`. */
export const mayManage = (principal: Principal, accountId: string | null): boolean =>
  principal._tag === "Operator" || principal.accountId === accountId

/** The key `id` if the principal may see it; another account's key is "not found", so nothing leaks. */
export const visibleKey = (keys: ApiKeys["Service"], principal: Principal, id: string) =>
  Effect.filterOrFail(
    keys.get(id),
    (key) => mayManage(principal, key.accountId),
    () => new KeyNotFound({ id })
  )
