import { type ApiKey, intersectAllowLists, unionApprovalLists } from "../domain/ApiKey.ts"
import type { KeyWithAccount, StoredKey } from "./KeyStore.ts"

/** A stored key without its secrets' hashes. */
export const publicView = (
  { previousExpiresAt: _p, previousSecretHash: _h, secretHash: _s, ...key }: StoredKey
): ApiKey => key

/**
 * The key as a request sees it: its allow-lists narrowed by its account's
 * (docs/DESIGN.md §6), its approval list widened by its account's (§10).
 */
const effectiveView = (
  { accountApprovals, accountLimits, accountModels, accountStatus: _, accountTools, ...key }: KeyWithAccount
): ApiKey => ({
  ...publicView(key),
  accountLimits,
  allowedModels: intersectAllowLists(key.allowedModels, accountModels),
  allowedTools: intersectAllowLists(key.allowedTools, accountTools),
  approvalRequired: unionApprovalLists(key.approvalRequired, accountApprovals)
})

// A cached lookup is the same object until it expires, so its view is made once, not per request.
const views = new WeakMap<KeyWithAccount, ApiKey>()

/** The effective view of a looked-up key (made once per lookup). */
export const viewOf = (key: KeyWithAccount): ApiKey => {
  let view = views.get(key)
  if (view === undefined) views.set(key, view = effectiveView(key))
  return view
}
