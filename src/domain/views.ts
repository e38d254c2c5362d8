import type { Account } from "./Account.ts"
import type { ApiKey } from "./ApiKey.ts"

// What the admin API and the CLI's --json show of accounts and keys: never a secret, a hash or a password hash.

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
