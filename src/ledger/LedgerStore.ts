import { Array as Arr, Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { UsageEvent } from "../domain/UsageEvent.ts"

const row = (event: UsageEvent): Record<string, unknown> => ({
  time: event.time,
  account_id: event.accountId,
  key_id: event.keyId,
  correlation_id: event.correlationId,
  model: event.model,
  status: event.status,
  outcome: event.outcome,
  finish_reason: event.finishReason,
  refused_limit: event.refusedLimit,
  input_tokens: event.inputTokens,
  output_tokens: event.outputTokens,
  total_tokens: event.totalTokens,
  reasoning_tokens: event.reasoningTokens,
  cached_input_tokens: event.cachedInputTokens,
  tool_calls: JSON.stringify(event.toolCalls),
  // Summed by the usage queries, which then need not parse `tool_calls`.
  tool_call_count: Object.values(event.toolCalls).reduce((sum, count) => sum + count, 0),
  steps: event.steps,
  duration_ms: event.durationMs,
  first_byte_ms: event.firstByteMs,
  pruned: event.pruned,
  cost_usd: event.costUsd
})

/** SQL writes to the `usage_events` table (docs/DESIGN.md §7); the batching is `UsageLedger`'s. */
export class LedgerStore extends Context.Service<LedgerStore, {
  /** One statement: the batch is written whole or not at all. */
  readonly insert: (events: ReadonlyArray<UsageEvent>) => Effect.Effect<void, SqlError.SqlError>
  /** Deletes the rows older than `cutoff`. */
  readonly deleteBefore: (cutoff: Date) => Effect.Effect<void, SqlError.SqlError>
}>()("parley/ledger/LedgerStore") {
  static readonly layer = Layer.effect(
    LedgerStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return LedgerStore.of({
        insert: (events) => {
          const rows = events.map(row)
          return Arr.isReadonlyArrayNonEmpty(rows)
            ? Effect.asVoid(sql`INSERT INTO usage_events ${sql.insert(rows)}`)
            : Effect.void
        },
        deleteBefore: (cutoff) => Effect.asVoid(sql`DELETE FROM usage_events WHERE time < ${cutoff}`)
      })
    })
  )
}
