import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../config/AppConfig.ts"
import { chatProtocolOf } from "../domain/protocols.ts"
import { ChangeFeed } from "./ChangeFeed.ts"
import { ABANDONED_AFTER_MS, RunStreams, type RunSummary, type StreamHead, type StreamStatus } from "./RunStreams.ts"

interface HeadRow {
  readonly run: string
  readonly key_id: string
  readonly account_id: string
  readonly status: StreamStatus
  readonly protocol: string
}

interface SummaryRow {
  readonly id: string
  readonly status: StreamStatus
  readonly stopped: number | string
  readonly protocol: string
  readonly started_at: number | string
  readonly ended_at: number | string | null
}

/**
 * Kept streams in the SQL store (`run_streams`, `run_stream_chunks`): one row
 * per chunk, written in the batches the running instance hands over.
 * `sweep` deletes what is past its retention. Stops go over the change feed.
 */
export const sqlRunStreams = Layer.effect(
  RunStreams,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const feed = yield* ChangeFeed
    const { streams } = yield* AppConfig
    // Made once: a generator made per call would keep what it reads past two scavenges (docs/DESIGN.md §12).
    const readChunks = Effect.fnUntraced(function*(run: string, after: number, limit: number) {
      const rows = yield* sql<{ readonly status: StreamStatus }>`SELECT status FROM run_streams WHERE run = ${run}`
      const status = rows[0]?.status
      if (status === undefined) return undefined
      const chunks = yield* sql<{ readonly seq: number | string; readonly text: string }>`
        SELECT seq, text FROM run_stream_chunks WHERE run = ${run} AND seq > ${after} ORDER BY seq LIMIT ${limit}`
      return { status, chunks: chunks.map((row) => ({ seq: Number(row.seq), text: row.text })) }
    })
    const headOf = (id: string) =>
      Effect.map(
        sql<HeadRow>`SELECT run, key_id, account_id, status, protocol FROM run_streams WHERE id = ${id}`,
        (rows): StreamHead | undefined => {
          const row = rows[0]
          return row === undefined ? undefined : {
            run: row.run,
            owner: { keyId: row.key_id, accountId: row.account_id },
            status: row.status,
            protocol: chatProtocolOf(row.protocol)
          }
        }
      )
    return RunStreams.of({
      open: (id, run, owner, now, protocol) =>
        Effect.gen(function*() {
          const before = yield* Effect.orDie(headOf(id))
          if (before !== undefined && before.owner.keyId !== owner.keyId) {
            return yield* Effect.fail({ _tag: "IdTaken" } as const)
          }
          yield* Effect.orDie(sql.withTransaction(Effect.gen(function*() {
            if (before !== undefined) {
              yield* sql`DELETE FROM run_stream_chunks WHERE run = ${before.run}`
              yield* sql`DELETE FROM run_streams WHERE id = ${id}`
            }
            yield* sql`INSERT INTO run_streams ${
              sql.insert({
                id,
                run,
                key_id: owner.keyId,
                account_id: owner.accountId,
                status: "running",
                protocol,
                started_at: now,
                ended_at: null
              })
            }`
          })))
        }),
      // One statement a chunk (one prepared text, whatever the batch's size), the batch in one transaction.
      append: (run, firstSeq, texts) =>
        Effect.orDie(sql.withTransaction(Effect.forEach(
          texts,
          (text, i) => sql`INSERT INTO run_stream_chunks (run, seq, text) VALUES (${run}, ${firstSeq + i}, ${text})`,
          { discard: true }
        ))),
      end: (_id, run, status, now, stopped) =>
        Effect.orDie(Effect.asVoid(
          sql`UPDATE run_streams SET status = ${status}, ended_at = ${now}, stopped = ${stopped ? 1 : 0}
            WHERE run = ${run}`
        )),
      head: (id) => Effect.orDie(headOf(id)),
      runs: (keyId, limit) =>
        Effect.orDie(Effect.map(
          sql<SummaryRow>`SELECT id, status, stopped, protocol, started_at, ended_at FROM run_streams
            WHERE key_id = ${keyId} ORDER BY started_at DESC LIMIT ${limit}`,
          (rows) =>
            rows.map((row): RunSummary => ({
              id: row.id,
              status: row.status,
              stopped: Number(row.stopped) === 1,
              protocol: chatProtocolOf(row.protocol),
              startedAt: Number(row.started_at),
              endedAt: row.ended_at === null ? null : Number(row.ended_at)
            }))
        )),
      read: (run, after, limit) => Effect.orDie(readChunks(run, after, limit)),
      stop: (run) => feed.publish("run-stops", run),
      stops: (handler) =>
        feed.subscribe("run-stops", (change) => Effect.sync(() => change._tag === "One" && handler(change.id))),
      sweep: (now) =>
        Effect.orDie(sql.withTransaction(Effect.gen(function*() {
          yield* sql`DELETE FROM run_streams WHERE (ended_at IS NOT NULL AND ended_at <= ${now - streams.retentionMs})
            OR (ended_at IS NULL AND started_at <= ${now - ABANDONED_AFTER_MS})`
          yield* sql`DELETE FROM run_stream_chunks WHERE run NOT IN (SELECT run FROM run_streams)`
        })))
    })
  })
)
