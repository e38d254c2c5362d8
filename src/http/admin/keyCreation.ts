import { Clock, Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { Principal } from "../../api/AdminAuthentication.ts"
import { CreateKey } from "../../api/adminSchemas.ts"
import { AccountNotFound } from "../../auth/accountErrors.ts"
import type { Accounts } from "../../auth/Accounts.ts"
import type { ApiKeys } from "../../auth/ApiKeys.ts"
import { DEFAULT_ACCOUNT_ID } from "../../domain/Account.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import { keyView } from "../../domain/views.ts"
import { readAdminBody } from "./adminBody.ts"
import { ok } from "./adminViews.ts"
import { type makeCatalogCheck, withinAccount } from "./allowListCheck.ts"

/**
 * POST /admin/v1/keys: a key for the caller's account (the operator's:
 * `accountId`, default `default`), its entries in the catalog and within the
 * account; the secret is in this answer only.
 */
export const makeKeyCreation = (
  keys: ApiKeys["Service"],
  accounts: Accounts["Service"],
  checkCatalog: ReturnType<typeof makeCatalogCheck>
) =>
(principal: Principal, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const input = yield* readAdminBody(request, CreateKey)
    let accountId = input.accountId ?? DEFAULT_ACCOUNT_ID
    if (principal._tag === "Account") {
      // Another account is "not found" to a session, so nothing leaks.
      if (input.accountId !== undefined && input.accountId !== principal.accountId) {
        return yield* new AccountNotFound({ id: input.accountId })
      }
      accountId = principal.accountId
    }
    const account = yield* accounts.get(accountId)
    yield* checkCatalog(input)
    yield* withinAccount(input, account)
    const expiresAt = input.expiresAt ?? undefined
    if (expiresAt !== undefined && expiresAt.getTime() <= (yield* Clock.currentTimeMillis)) {
      return yield* new InvalidRequest({ issues: ["\"expiresAt\" must be in the future"] })
    }
    const { key, secret } = yield* keys.create({
      name: input.name,
      allowedModels: input.allowedModels,
      allowedTools: input.allowedTools,
      approvalRequired: input.approvalRequired,
      limits: input.limits,
      expiresAt,
      accountId
    })
    return ok({ key: keyView(key), secret }, 201)
  })
