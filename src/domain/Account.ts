import { Schema } from "effect"
import type { Limits } from "./Limits.ts"

export const AccountStatus = Schema.Literals(["active", "disabled"])
export type AccountStatus = typeof AccountStatus.Type

/** The account keys made before accounts existed belong to (docs/DESIGN.md §6). */
export const DEFAULT_ACCOUNT_ID = "default"

/**
 * Who owns keys and sandboxes (docs/DESIGN.md §6). Its allow-lists bound its
 * keys': a key can only narrow them. The password hash never leaves the
 * store. `email` is null only for the `default` account.
 */
export interface Account {
  readonly id: string
  readonly name: string
  readonly email: string | null
  readonly status: AccountStatus
  readonly allowedModels: ReadonlyArray<string>
  readonly allowedTools: ReadonlyArray<string>
  /** Tools that wait for a person's approval for every key of the account (docs/DESIGN.md §10). */
  readonly approvalRequired: ReadonlyArray<string>
  /** Limits counted over all the account's keys (docs/DESIGN.md §11). */
  readonly limits: Limits
  readonly createdAt: Date
}
