import { HttpServerResponse } from "effect/http"
import type { Account } from "../../domain/Account.ts"
import type { ApiKey } from "../../domain/ApiKey.ts"

/** What the admin API shows of accounts and keys: never a secret, a hash or a password hash. */

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

/** The success envelope of the API (`{success: true, data}`), never cached: it may hold a secret. */
export const ok = (data: unknown, status = 200) =>
  HttpServerResponse.jsonUnsafe({ success: true, data }, { status, headers: { "cache-control": "no-store" } })
