import { Context, Deferred, Duration, Effect, Layer, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfig } from "../config/AppConfig.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { ChatProtocolName } from "../domain/protocols.ts"
import { RunStreams, type StreamHead } from "../store/RunStreams.ts"
import { KeptStream } from "./KeptStream.ts"
import { ChatIdTaken, RunNotFound } from "./requestErrors.ts"

/** A resumable run on this instance: its kept stream, and what completes when a client asks it to stop. */
export interface KeptRun {
  readonly stream: KeptStream
  readonly stopped: Effect.Effect<void>
  /** The run ended: a stop that comes later finds nothing to stop here. */
  readonly release: () => void
}

/** How often a follower on another instance than the run's looks for new chunks. */
const POLL_MS = 100

/**
 * Runs that outlive their client (docs/DESIGN.md §16): their streams kept in
 * `RunStreams` for any instance to follow, and stops carried to whichever
 * instance runs them (Redis pub/sub, or the database's change feed). Followers on
 * the run's own instance are woken by each append; others look every 100 ms.
 */
export class KeptRuns extends Context.Service<KeptRuns, {
  /** Keeps the stream of `key`'s run, made by door `protocol`, under `id`, replacing the id's last run. */
  readonly start: (id: string, key: ApiKey, protocol: ChatProtocolName) => Effect.Effect<KeptRun, ChatIdTaken>
  /** The run kept under `id` if key `keyId` started it; another key's is `RunNotFound`, none is undefined. */
  readonly find: (id: string, keyId: string) => Effect.Effect<StreamHead | undefined, RunNotFound>
  /** Asks key `keyId`'s run kept under `id` to stop, wherever it runs: whether it was still running. */
  readonly stop: (id: string, keyId: string) => Effect.Effect<boolean, RunNotFound>
  /** Key `keyId`'s kept runs, newest first (`RunStreams.runs`). */
  readonly runs: RunStreams["Service"]["runs"]
  readonly read: RunStreams["Service"]["read"]
  /** Waits until `run`'s stream changed here, or long enough that another instance may have changed it. */
  readonly changed: (run: string) => Effect.Effect<void>
}>()("parley/http/KeptRuns") {
  static readonly layer = Layer.effect(
    KeptRuns,
    Effect.gen(function*() {
      const store = yield* RunStreams
      const { streams } = yield* AppConfig
      const running = new Map<string, { readonly stop: Deferred.Deferred<void>; readonly stream: KeptStream }>()
      const waiters = new Map<string, Set<() => void>>()

      const wake = (run: string) => {
        const waiting = waiters.get(run)
        if (waiting === undefined) return
        waiters.delete(run)
        for (const resume of waiting) resume()
      }

      yield* store.stops((run) => {
        const here = running.get(run)
        if (here === undefined) return
        here.stream.stopped = true
        Deferred.doneUnsafe(here.stop, Effect.void)
      })
      // Redis expires its streams itself; the SQL store is swept, at most a minute after a stream's time.
      const every = Duration.millis(Math.min(60_000, Math.max(1_000, streams.retentionMs)))
      yield* Effect.forkScoped(
        Effect.repeat(Effect.suspend(() => store.sweep(Date.now())), Schedule.spaced(every))
      )

      const find = (id: string, keyId: string) =>
        Effect.flatMap(store.head(id), (head) => {
          if (head === undefined) return Effect.undefined
          return head.owner.keyId === keyId ? Effect.succeed(head) : Effect.fail(new RunNotFound({ id }))
        })

      return KeptRuns.of({
        start: Effect.fnUntraced(function*(id, key, protocol) {
          const run = randomUUID()
          yield* Effect.mapError(
            store.open(id, run, { keyId: key.id, accountId: key.accountId }, Date.now(), protocol),
            () => new ChatIdTaken({ id })
          )
          const stop = Deferred.makeUnsafe<void>()
          const stream = new KeptStream(store, id, run, streams.maxBytes, wake)
          running.set(run, { stop, stream })
          return { stream, stopped: Deferred.await(stop), release: () => running.delete(run) }
        }),
        find,
        stop: (id, keyId) =>
          Effect.flatMap(find(id, keyId), (head) => {
            if (head === undefined) return Effect.fail(new RunNotFound({ id }))
            if (head.status === "ended") return Effect.succeed(false)
            return Effect.as(store.stop(head.run), true)
          }),
        runs: store.runs,
        read: store.read,
        changed: (run) =>
          Effect.callback<void>((resume) => {
            const waiting = waiters.get(run) ?? new Set()
            waiters.set(run, waiting)
            const forget = () => {
              clearTimeout(timer)
              waiting.delete(done)
              if (waiting.size === 0 && waiters.get(run) === waiting) waiters.delete(run)
            }
            const done = () => {
              forget()
              resume(Effect.void)
            }
            const timer = setTimeout(done, POLL_MS)
            waiting.add(done)
            return Effect.sync(forget)
          })
      })
    })
  )
}
