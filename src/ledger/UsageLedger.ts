import { Context, Duration, Effect, Latch, Layer, Schedule, Semaphore } from "effect"
import type { SqlError } from "effect/sql"
import { AppConfig } from "../config/AppConfig.ts"
import type { UsageEvent } from "../domain/UsageEvent.ts"
import { type PriceList, priceList } from "../models/pricing.ts"
import { type ChatEnding, chatEvent, type ChatFacts } from "./chatEvent.ts"
import { LedgerStore } from "./LedgerStore.ts"
import { toolCallEvent, type ToolCallFacts } from "./toolCallEvent.ts"

export interface LedgerOptions {
  /** Rows per write (one transaction, `LedgerStore`), and how many buffered rows wake the writer at once (500). */
  readonly batchSize: number
  /** Longest a row waits in the buffer while the store answers (1 s). */
  readonly interval: Duration.Input
  /** Rows older than this many days are deleted (`PARLEY_LEDGER_DAYS`). */
  readonly retentionDays: number
  /** How often old rows are deleted (hourly, and once at start). */
  readonly retentionEvery: Duration.Input
  readonly prices: PriceList
}

/** Rows held while the store cannot take them; past it new rows are dropped (and counted in a warning), not memory. */
const MAX_BUFFERED = 100_000
/** A failed write is retried after 1 s, then 2 s, … up to 30 s apart. */
const retryDelay = (failures: number) => Duration.millis(Math.min(1_000 * 2 ** (failures - 1), 30_000))
/** At shutdown: a few quick attempts, as the process is about to go. */
const SHUTDOWN_ATTEMPTS = 5
const DAY_MS = 86_400_000

const make = Effect.fnUntraced(function*(options: LedgerOptions) {
  const store = yield* LedgerStore
  const buffer: Array<UsageEvent> = []
  const full = Latch.makeUnsafe(false)
  let dropped = 0

  const record = (event: UsageEvent): void => {
    if (buffer.length >= MAX_BUFFERED) {
      dropped++
      return
    }
    buffer.push(event)
    if (buffer.length >= options.batchSize) full.openUnsafe()
  }

  // Uninterruptible, so a stop never leaves a batch half-known; a failed batch goes back in front, in order.
  const writeBatch = Effect.uninterruptible(Effect.suspend(() => {
    const batch = buffer.splice(0, options.batchSize)
    return store.insert(batch).pipe(Effect.tapError(() => Effect.sync(() => void buffer.unshift(...batch))))
  }))

  // One writer at a time: a flush waits for the batch the background fiber has taken, so it returns with every row written.
  const writing = Semaphore.makeUnsafe(1)
  const writeAll: Effect.Effect<void, SqlError.SqlError> = Semaphore.withPermit(writing)(Effect.whileLoop({
    while: () => buffer.length > 0,
    body: () => writeBatch,
    step: () => undefined
  }))

  const warnDropped = Effect.suspend(() => {
    if (dropped === 0) return Effect.void
    const count = dropped
    dropped = 0
    return Effect.logWarning(`Usage ledger: ${count} rows dropped, the store has not taken rows for too long`)
  })

  // Wakes every interval, or at once when a batch is full, and writes everything buffered; after a failure, at the retry.
  const writer = Effect.gen(function*() {
    let failures = 0
    for (;;) {
      if (failures === 0) {
        yield* Effect.timeoutOption(full.await, options.interval)
        full.closeUnsafe()
      } else {
        yield* Effect.sleep(retryDelay(failures))
      }
      yield* warnDropped
      const failed = yield* writeAll.pipe(
        Effect.as(false),
        Effect.catch((error) =>
          Effect.as(Effect.logWarning(`Usage ledger: writing ${buffer.length} rows failed; retrying`, error), true)
        )
      )
      failures = failed ? failures + 1 : 0
    }
  })

  const purge = Effect.suspend(() => store.deleteBefore(new Date(Date.now() - options.retentionDays * DAY_MS))).pipe(
    Effect.catch((error) => Effect.logWarning("Usage ledger: deleting old rows failed", error))
  )

  const flushOnStop = writeAll.pipe(
    Effect.retry({ times: SHUTDOWN_ATTEMPTS - 1, schedule: Schedule.exponential("100 millis") }),
    Effect.catch((error) =>
      Effect.logError(`Usage ledger: ${buffer.length} rows could not be written before the stop`, error)
    )
  )

  // Finalizers run last first: the writer stops (after its current batch), then the rest is written.
  yield* Effect.addFinalizer(() => flushOnStop)
  yield* Effect.forkScoped(writer)
  yield* Effect.forkScoped(Effect.repeat(purge, Schedule.spaced(options.retentionEvery)))

  return UsageLedger.of({
    record,
    recordChat: (facts, correlationId, ending) => {
      const event = chatEvent(facts, correlationId, ending, options.prices, Date.now())
      if (event !== undefined) record(event)
    },
    recordToolCall: (facts, correlationId, cancelled) =>
      record(toolCallEvent(facts, correlationId, cancelled, options.prices, Date.now())),
    flush: writeAll
  })
})

/**
 * The usage ledger's writer (docs/DESIGN.md §7). Recording is a push onto an
 * in-memory buffer, so the request path never waits for the store; a
 * background fiber writes the buffer in batches (at most `batchSize` rows a
 * write, at least every `interval`), retries a failed write with
 * backoff, and the layer's finalizer writes what is left when the gateway
 * stops. Rows past the retention are deleted hourly.
 */
export class UsageLedger extends Context.Service<UsageLedger, {
  /** Buffers one row; never waits, never fails. */
  readonly record: (event: UsageEvent) => void
  /** Buffers the row of a POST /chat (nothing for one that did not pass authentication). */
  readonly recordChat: (facts: ChatFacts, correlationId: string, ending: ChatEnding) => void
  /** Buffers the row of an /mcp tools/call; `cancelled`: the client left before its answer. */
  readonly recordToolCall: (facts: ToolCallFacts, correlationId: string, cancelled: boolean) => void
  /** Writes everything buffered now, after the write under way if any. */
  readonly flush: Effect.Effect<void, SqlError.SqlError>
}>()("parley/ledger/UsageLedger") {
  static readonly layerWith = (options: LedgerOptions): Layer.Layer<UsageLedger, never, LedgerStore> =>
    Layer.effect(UsageLedger, make(options))

  /** As configured: `PARLEY_LEDGER_DAYS` and the models' `pricing`, over the configured database. */
  static readonly layer = Layer.unwrap(Effect.map(Effect.service(AppConfig), (config) =>
    UsageLedger.layerWith({
      batchSize: 500,
      interval: Duration.seconds(1),
      retentionDays: config.ledgerDays,
      retentionEvery: Duration.hours(1),
      prices: priceList(config)
    }))).pipe(Layer.provide(LedgerStore.layer))
}
