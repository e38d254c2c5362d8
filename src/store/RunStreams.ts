import { Context, type Effect, type Scope } from "effect"
import type { ChatProtocolName } from "../domain/protocols.ts"

/** Who started a kept run: only that key (or its account) may read or stop it. */
export interface StreamOwner {
  readonly keyId: string
  readonly accountId: string
}

/**
 * `running` while its instance appends; `ended` once the run's last chunk is
 * kept; `cut` when it grew past the size bound and stopped being kept (the
 * chunks before the cut stay, and a reader is told the rest is missing).
 */
export type StreamStatus = "running" | "ended" | "cut"

/** The run kept under an id now (a chat id: each new run of the chat replaces the last). */
export interface StreamHead {
  /** This run's own token: chunks and stops name the run, not the id another run may take over. */
  readonly run: string
  readonly owner: StreamOwner
  readonly status: StreamStatus
  /** The door that made the run: a replay of it is framed as that door's stream (docs/DESIGN.md §16). */
  readonly protocol: ChatProtocolName
}

/** A key's kept run as a list shows it: its chat id, status, whether a stop ended it, and its times (epoch ms). */
export interface RunSummary {
  readonly id: string
  readonly status: StreamStatus
  /** A stop was heard by its instance before it ended. */
  readonly stopped: boolean
  readonly protocol: ChatProtocolName
  readonly startedAt: number
  readonly endedAt: number | null
}

/** One piece of a stream, numbered from 1 in the order the running instance wrote it. */
export interface StreamChunk {
  readonly seq: number
  readonly text: string
}

/** The id is kept for another key's run: a run of this key cannot take it over. */
export interface IdTaken {
  readonly _tag: "IdTaken"
}

/**
 * Streams of runs that outlive their client (docs/DESIGN.md §16): the
 * running instance appends each chunk with its sequence number; any instance
 * reads them from the start or after a number, and learns when the run
 * ended. Shared by every instance: in Redis when `REDIS_URL` is set, else in
 * the SQL store. A stream is forgotten `retentionMs` after its run ended, and
 * one whose instance died while running an hour after it began.
 */
export class RunStreams extends Context.Service<RunStreams, {
  /**
   * Keeps `run`, made by door `protocol`, under `id`, dropping the run kept there before (of the same
   * owner; another's: `IdTaken`).
   */
  readonly open: (
    id: string,
    run: string,
    owner: StreamOwner,
    now: number,
    protocol: ChatProtocolName
  ) => Effect.Effect<void, IdTaken>
  /** Appends `texts` numbered from `firstSeq`; called in order, one call at a time per run. */
  readonly append: (run: string, firstSeq: number, texts: ReadonlyArray<string>) => Effect.Effect<void>
  /** The run ended (`ended`) or stopped being kept (`cut`), `stopped` by a stop or not; its retention starts at `now`. */
  readonly end: (
    id: string,
    run: string,
    status: "ended" | "cut",
    now: number,
    stopped: boolean
  ) => Effect.Effect<void>
  readonly head: (id: string) => Effect.Effect<StreamHead | undefined>
  /** `keyId`'s kept runs (each chat's latest), newest first, at most `limit`. */
  readonly runs: (keyId: string, limit: number) => Effect.Effect<ReadonlyArray<RunSummary>>
  /**
   * The run's status, read before its chunks after `after` (at most `limit`):
   * a status that says ended means the chunks read with it are the last ones.
   * Undefined once the run is no longer kept.
   */
  readonly read: (
    run: string,
    after: number,
    limit: number
  ) => Effect.Effect<{ readonly status: StreamStatus; readonly chunks: ReadonlyArray<StreamChunk> } | undefined>
  /**
   * Asks whichever instance runs `run` to stop it: Redis pub/sub when the streams are in Redis, else the
   * database's change feed (Postgres `LISTEN/NOTIFY`; one process on SQLite). Never fails: a stop that
   * cannot be carried leaves the run to its own end.
   */
  readonly stop: (run: string) => Effect.Effect<void>
  /** `handler` hears every run any instance asks to stop, until the scope closes. */
  readonly stops: (handler: (run: string) => void) => Effect.Effect<void, never, Scope.Scope>
  /** Forgets what is past its retention at `now` (the SQL store; Redis expires its keys itself). */
  readonly sweep: (now: number) => Effect.Effect<void>
}>()("parley/store/RunStreams") {}

/** How long a stream whose instance never ended it (it died) is kept from its start. */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000
