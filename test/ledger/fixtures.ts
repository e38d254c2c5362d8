import { Effect, Layer } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import type { UsageEvent } from "../../src/domain/UsageEvent.ts"
import { LedgerStore } from "../../src/ledger/LedgerStore.ts"

/** A ledger row with plain values; tests override what they check. */
export const usageEvent = (overrides: Partial<UsageEvent> = {}): UsageEvent => ({
  time: new Date(),
  accountId: "default",
  keyId: "key_a",
  correlationId: "corr",
  protocol: "ui",
  model: "test/m1",
  target: "test/m1",
  status: 200,
  outcome: "finished",
  finishReason: "stop",
  refusedLimit: null,
  inputTokens: 10,
  outputTokens: 2,
  totalTokens: 12,
  reasoningTokens: null,
  cachedInputTokens: null,
  toolCalls: {},
  steps: 1,
  durationMs: 40,
  firstByteMs: 20,
  pruned: false,
  costUsd: null,
  ...overrides
})

/** The real store, watched: each write's row count, and a number of writes to fail first (a store that is down). */
export interface WatchedStore {
  readonly inserts: Array<number>
  failNext: number
}

export const watchedStore = (watched: WatchedStore): Layer.Layer<LedgerStore, never, SqlClient.SqlClient> =>
  Layer.effect(
    LedgerStore,
    Effect.map(Effect.service(LedgerStore), (real) =>
      LedgerStore.of({
        insert: (events) =>
          Effect.suspend(() => {
            if (watched.failNext > 0) {
              watched.failNext--
              return Effect.fail(
                new SqlError.SqlError({
                  reason: SqlError.classifySqliteError(new Error("database is locked"), {
                    message: "Failed to execute statement",
                    operation: "execute"
                  })
                })
              )
            }
            return Effect.map(real.insert(events), () => void watched.inserts.push(events.length))
          }),
        deleteBefore: real.deleteBefore
      }))
  ).pipe(Layer.provide(LedgerStore.layer))

/** How many rows the table holds. */
export const countRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM usage_events`
  return Number(row?.n)
})
