import { Effect } from "effect"
import type { RunStreams } from "../store/RunStreams.ts"

/** Most chunks one append hands the store (a Redis script's arguments, an INSERT's parameters). */
const BATCH = 200

/** Text waiting for the store past which the run waits for it, as it waits for a slow client (`SseWriter`). */
const HIGH_WATER_BYTES = 1024 * 1024

/**
 * The kept copy of one resumable run's stream (docs/DESIGN.md §16): every
 * text the stream writes to its client, in order, appended to the store with
 * its sequence number by one writer at a time, whatever accumulated while the
 * last append was on its way going in the next. It holds at most `maxBytes`
 * of text: past that the stream stops being kept (`cut`), so a long answer
 * never grows the gateway beyond one stream's bound; and while more than
 * `HIGH_WATER_BYTES` wait for the store, the run waits for it (`behind`), as
 * it waits for a slow client, so a run whose client left holds little more.
 */
export class KeptStream {
  private pending: Array<string> = []
  private pendingBytes = 0
  private waiters: Array<() => void> = []
  private seq = 0
  private bytes = 0
  private writing = false
  private ending = false
  private cut = false
  private closed = false
  private readonly done: Promise<void>
  private finish: () => void = () => undefined
  /** A stop was heard for this run: its end is recorded as stopped. */
  stopped = false
  private readonly store: RunStreams["Service"]
  readonly id: string
  readonly run: string
  private readonly maxBytes: number
  /** Followers on this instance read again (the store changed). */
  private readonly changed: (run: string) => void

  constructor(
    store: RunStreams["Service"],
    id: string,
    run: string,
    maxBytes: number,
    changed: (run: string) => void
  ) {
    this.store = store
    this.id = id
    this.run = run
    this.maxBytes = maxBytes
    this.changed = changed
    this.done = new Promise((resolve) => (this.finish = resolve))
  }

  /** Resolves once the store has the stream's end (or gave up on it): what a server stopping waits for. */
  finished(): Promise<void> {
    return this.done
  }

  /** A text the client was sent (or would have been, had it stayed). */
  add(text: string): void {
    if (this.cut || this.ending) return
    const bytes = Buffer.byteLength(text)
    this.bytes += bytes
    if (this.bytes > this.maxBytes) this.cut = true
    else {
      this.pending.push(text)
      this.pendingBytes += bytes
    }
    this.write()
  }

  /** More than the high-water mark waits for the store. */
  get behind(): boolean {
    return this.pendingBytes > HIGH_WATER_BYTES
  }

  /** Resolves once the store took enough (or the stream is no longer kept). */
  caughtUp(): Promise<void> {
    return this.behind ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve()
  }

  private release(): void {
    if (this.behind && !this.cut) return
    for (const resume of this.waiters.splice(0)) resume()
  }

  /** The stream's last text was added; more is ignored. */
  end(): void {
    if (this.ending) return
    this.ending = true
    this.write()
  }

  private write(): void {
    if (this.writing) return
    this.writing = true
    this.drain().then(
      () => {
        this.writing = false
        // What came while the last step was settling.
        if (this.pending.length > 0 || ((this.cut || this.ending) && !this.closed)) this.write()
      },
      (error: unknown) => {
        // A store that fails loses this stream, never the run: its client (if still there) reads on.
        this.cut = true
        this.pending = []
        this.pendingBytes = 0
        this.release()
        this.writing = false
        Effect.runFork(Effect.logWarning("A kept stream could not be written; a resume of it ends early", error))
        this.close().catch(() => undefined)
      }
    )
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, BATCH)
      await Effect.runPromise(this.store.append(this.run, this.seq + 1, batch))
      this.seq += batch.length
      for (const text of batch) this.pendingBytes -= Buffer.byteLength(text)
      this.release()
      this.changed(this.run)
    }
    if (this.cut || this.ending) await this.close()
  }

  private async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    try {
      await Effect.runPromise(this.store.end(this.id, this.run, this.cut ? "cut" : "ended", Date.now(), this.stopped))
    } finally {
      this.finish()
      this.changed(this.run)
    }
  }
}
