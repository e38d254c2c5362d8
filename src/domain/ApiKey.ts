import { Schema } from "effect"
import type { Limits } from "./Limits.ts"

export const KeyStatus = Schema.Literals(["active", "inactive", "revoked"])
export type KeyStatus = typeof KeyStatus.Type

/**
 * An API key as the gateway sees it after authentication. The secret itself
 * is never stored or held: only its SHA-256 hash, in the store.
 *
 * Allow-list entries: `*` (everything), `provider/*` (a whole provider, models
 * only), `server__*` (all tools of an MCP server, docs/DESIGN.md §9) or an
 * exact name. An empty list allows nothing.
 */
export interface ApiKey {
  readonly id: string
  /** The owning account (docs/DESIGN.md §6). */
  readonly accountId: string
  readonly name: string
  /** First characters of the secret, safe to show (e.g. `pk_live_ab12`). */
  readonly prefix: string
  readonly status: KeyStatus
  readonly allowedModels: ReadonlyArray<string>
  readonly allowedTools: ReadonlyArray<string>
  /**
   * Tools that wait for a person's approval before they run (docs/DESIGN.md
   * §10), in allow-list patterns. Effective for a request: key ∪ account.
   */
  readonly approvalRequired: ReadonlyArray<string>
  /** The key's own limits (docs/DESIGN.md §11). */
  readonly limits: Limits
  /** Its account's limits, present on the key a request sees (both apply, docs/DESIGN.md §11). */
  readonly accountLimits?: Limits | undefined
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
  readonly expiresAt: Date | null
}

const matches = (list: ReadonlyArray<string>, name: string): boolean => {
  for (const entry of list) {
    if (entry === "*" || entry === name) return true
    if ((entry.endsWith("/*") || entry.endsWith("__*")) && name.startsWith(entry.slice(0, -1))) return true
  }
  return false
}

/** Whether one allow-list entry admits everything another does (same pattern rules as `matches`). */
const covers = (wide: string, narrow: string): boolean =>
  wide === "*" || wide === narrow ||
  ((wide.endsWith("/*") || wide.endsWith("__*")) && narrow !== "*" && narrow.startsWith(wide.slice(0, -1)))

/**
 * The entries of `key` that `account` admits, narrowed where the account is
 * narrower: the effective allow-list of a key under its account (key ∩
 * account, docs/DESIGN.md §6), itself an allow-list of the same patterns.
 */
export const intersectAllowLists = (
  key: ReadonlyArray<string>,
  account: ReadonlyArray<string>
): ReadonlyArray<string> => {
  const result = new Set<string>()
  for (const mine of key) {
    for (const theirs of account) {
      if (covers(theirs, mine)) result.add(mine)
      else if (covers(mine, theirs)) result.add(theirs)
    }
  }
  return [...result]
}

/** Entries of `list` that `bound` does not wholly admit (a key wider than its account). */
export const entriesBeyond = (list: ReadonlyArray<string>, bound: ReadonlyArray<string>): ReadonlyArray<string> =>
  list.filter((entry) => !bound.some((outer) => covers(outer, entry)))

export const allowsModel = (key: ApiKey, modelId: string): boolean => matches(key.allowedModels, modelId)
export const allowsTool = (key: ApiKey, toolName: string): boolean => matches(key.allowedTools, toolName)

/** Whether a call of this tool waits for a person's approval (docs/DESIGN.md §10). */
export const requiresApproval = (key: ApiKey, toolName: string): boolean => matches(key.approvalRequired, toolName)

/**
 * The approval list of a key under its account: key ∪ account, so a key can
 * add tools that wait for a person but never waive one its account names
 * (docs/DESIGN.md §10).
 */
export const unionApprovalLists = (
  key: ReadonlyArray<string>,
  account: ReadonlyArray<string>
): ReadonlyArray<string> => [...new Set([...account, ...key])]
