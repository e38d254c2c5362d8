import { Clock, Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { SecretKey } from "../auth/SecretKey.ts"
import { type ApprovalIds, makeApprovalIds } from "./approvalIds.ts"

/**
 * Tool approvals (docs/DESIGN.md §10): issuing and checking approval ids,
 * and remembering which were honoured, so that each is honoured once. The
 * memory is the store's `used_approvals` table, shared by every instance
 * on the same database; a row goes once its id could not be honoured anyway.
 */
export class Approvals extends Context.Service<Approvals, {
  readonly ids: ApprovalIds
  /**
   * Records `ids` as honoured, all or none: the ids that already were (then
   * nothing is recorded), or none.
   */
  readonly claim: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
}>()("parley/governance/Approvals") {
  static readonly layer = Layer.effect(
    Approvals,
    Effect.gen(function*() {
      const ids = makeApprovalIds(Redacted.value(yield* SecretKey))
      const sql = yield* SqlClient.SqlClient

      // Made once, not per call: a generator made per call keeps its request past two scavenges (docs/DESIGN.md §12).
      const claimAll = Effect.fnUntraced(function*(claimed: ReadonlyArray<string>, now: Date) {
        yield* sql`DELETE FROM used_approvals WHERE expires_at < ${now}`
        const used: Array<string> = []
        for (const id of claimed) {
          const rows = yield* sql`INSERT INTO used_approvals ${
            sql.insert({ id, expires_at: ids.expiresAt(id) ?? now })
          } ON CONFLICT (id) DO NOTHING RETURNING id`
          if (rows.length === 0) used.push(id)
        }
        // Any id already used: undo the others, so a refused request changes nothing.
        if (used.length > 0) return yield* Effect.fail(used)
        return used
      })
      const claimNow = Effect.fnUntraced(function*(claimed: ReadonlyArray<string>) {
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(claimAll(claimed, now)).pipe(
          Effect.catchIf(Array.isArray, (used: ReadonlyArray<string>) => Effect.succeed(used)),
          // The store failing is unexpected: a 500, never an approval honoured twice.
          Effect.orDie
        )
      })

      return Approvals.of({
        ids,
        claim: (claimed) => claimed.length === 0 ? Effect.succeed([]) : claimNow(claimed)
      })
    })
  )

  /** In memory, with a fresh secret: for tests of what uses approvals. */
  static readonly layerTest = Layer.sync(Approvals, () => {
    const used = new Set<string>()
    return Approvals.of({
      ids: makeApprovalIds(randomBytes(32)),
      claim: (claimed) =>
        Effect.sync(() => {
          const again = claimed.filter((id) => used.has(id))
          if (again.length === 0) { for (const id of claimed) used.add(id) }
          return again
        })
    })
  })
}
