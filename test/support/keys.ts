import type { ApiKey } from "../../src/domain/ApiKey.ts"

/** An in-memory key record for unit tests of allow-list logic. */
export const makeKey = (overrides: Partial<ApiKey> = {}): ApiKey => ({
  id: "key_test",
  accountId: "default",
  name: "test",
  prefix: "pk_test",
  status: "active",
  allowedModels: ["*"],
  allowedTools: ["*"],
  approvalRequired: [],
  limits: {},
  createdAt: new Date(0),
  lastUsedAt: null,
  expiresAt: null,
  ...overrides
})
