import { Cache, Duration, Effect, Exit, Option } from "effect"
import type { Change, ChangeFeed } from "../store/ChangeFeed.ts"
import type { KeyStore, KeyWithAccount } from "./KeyStore.ts"

/**
 * Keys by secret hash (found or not), each lookup trusted for `ttl`. A
 * change the feed announces to a key or to its account drops its entries at once.
 */
export const makeKeyLookups = Effect.fnUntraced(function*(
  store: KeyStore["Service"],
  feed: ChangeFeed["Service"],
  options: { readonly ttl: Duration.Duration; readonly capacity: number }
) {
  // Store failures are unexpected here: they become defects (a 500), are
  // never cached, and the next request asks the database again.
  const lookups = yield* Cache.makeWith(
    (secretHash: string) => Effect.orDie(store.findByHash(secretHash)),
    {
      capacity: options.capacity,
      timeToLive: (exit) => Exit.isSuccess(exit) ? options.ttl : Duration.zero
    }
  )
  // Entries are found by what they hold (a key's current and previous secrets, an account's keys).
  const forgetWhere = (matches: (key: KeyWithAccount) => boolean) =>
    Effect.flatMap(Cache.entries(lookups), (entries) =>
      Effect.forEach(
        Array.from(entries).filter(([, found]) => Option.isSome(found) && matches(found.value)),
        ([hash]) => Cache.invalidate(lookups, hash),
        { discard: true }
      ))
  const forgetOn = (matches: (id: string, key: KeyWithAccount) => boolean) => (change: Change) =>
    change._tag === "All"
      ? Cache.invalidateAll(lookups)
      : forgetWhere((key) => matches(change.id, key))
  yield* feed.subscribe("keys", forgetOn((id, key) => key.id === id))
  yield* feed.subscribe("accounts", forgetOn((id, key) => key.accountId === id))
  return (secretHash: string) => Cache.get(lookups, secretHash)
})
