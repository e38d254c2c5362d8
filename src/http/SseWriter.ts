import type { ServerResponse } from "node:http"
import type { WriteFailed } from "./answerWrites.ts"
import { drainOf, EncodedStream, type StreamEncoding } from "./EncodedStream.ts"
import type { KeptStream } from "./KeptStream.ts"
import { utf8 } from "./utf8Bytes.ts"

/**
 * How much a slow client may leave in the response's buffer before the run
 * waits for it. One slow stream then holds about this much, plus what one
 * turn of the event loop reads from the provider.
 */
const HIGH_WATER_BYTES = 1024 * 1024

/**
 * Writes the agent's events to the socket as they are emitted, in a
 * protocol's encoding. The response
 * starts (200 and headers) with the first event, so a run that fails before
 * emitting anything can still answer with a normal HTTP error. Events
 * emitted in one turn of the event loop (one upstream read yields many, and
 * a fast run ends in the same turn) leave in one write: each write is a
 * system call that costs more than encoding the chunks (BENCHMARKS.md).
 *
 * It is also the run's `ClientPace`: once more than `HIGH_WATER_BYTES` wait
 * in the response's buffer for a client that reads slowly, the client is
 * behind until the buffer drains (or the client goes), and the run waits.
 *
 * No write throws out of it (docs/DESIGN.md §3.25): one that throws, encoding
 * or writing, breaks the writer, which writes nothing more to the socket and
 * tells `writeFailed` once, for the route to end the answer. A kept stream
 * still takes every text, so that it ends as the run does.
 */
export class SseWriter extends EncodedStream {
  private readonly res: ServerResponse
  private readonly headers: Record<string, string>
  private readonly kept: KeptStream | undefined
  private pending = ""
  private scheduled = false
  private drained: Promise<void> = Promise.resolve()
  private lastWriteAt = 0
  private keepAliveTimer: ReturnType<typeof setTimeout> | undefined = undefined
  private clientBehind = false

  /**
   * `kept`: a resumable run's stream (docs/DESIGN.md §16) takes every text too, the client there or not.
   * `writeFailed`: told when a write threw, once.
   */
  constructor(
    res: ServerResponse,
    headers: Record<string, string>,
    encoding: StreamEncoding,
    writeFailed: WriteFailed,
    kept?: KeptStream
  ) {
    super(encoding, writeFailed)
    this.res = res
    this.headers = headers
    this.kept = kept
  }

  protected push(text: string): void {
    if (this.closed) return
    this.started = true
    this.kept?.add(text)
    if (this.broken) return
    this.pending += text
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.flush)
  }

  // After a write threw, the ending goes only once the head went out: before, the route answers with an error body.
  protected close(last: string | undefined): void {
    // Once: an ending that threw is told, and the route's own ending may come back here first.
    if (this.closed) return
    this.closed = true
    clearTimeout(this.keepAliveTimer)
    if (this.kept !== undefined) {
      if (last !== undefined) this.kept.add(last)
      this.kept.end()
    }
    // A run answered at once (an accepted background response) has written its answer already.
    if (this.res.writableEnded || this.res.destroyed) return
    if (this.broken) return this.endBroken(last)
    const text = this.pending + (last ?? "")
    this.pending = ""
    if (!this.writeHead()) return
    try {
      this.res.end(text === "" ? text : utf8(text))
    } catch (error) {
      this.break(error, "end")
    }
  }

  private endBroken(last: string | undefined): void {
    if (!this.res.headersSent) return
    if (last === undefined) return void this.res.destroy()
    try {
      this.res.end(utf8(last))
    } catch {
      this.res.destroy()
    }
  }

  /** Whether the head is out: false when writing it threw (told). */
  private writeHead(): boolean {
    if (this.res.headersSent) return true
    try {
      this.res.writeHead(200, { ...this.encoding.headers, ...this.headers, "content-type": "text/event-stream" })
    } catch (error) {
      this.break(error, "head")
      return false
    }
    this.firstByteAt = Date.now()
    return true
  }

  protected dropped(): void {
    this.pending = ""
    clearTimeout(this.keepAliveTimer)
  }

  /** The client is behind, or a kept stream's store is (docs/DESIGN.md §16): the run waits for both. */
  get behind(): boolean {
    return this.clientBehind || (this.kept !== undefined && this.kept.behind)
  }

  readonly caughtUp = (): Promise<void> =>
    this.kept === undefined ? this.drained : Promise.all([this.drained, this.kept.caughtUp()]).then(() => undefined)

  private readonly flush = (): void => {
    this.scheduled = false
    if (this.pending.length === 0) return
    // A client that left reads no more; a kept run (which goes on) holds nothing for it.
    if (this.res.writableEnded || this.res.destroyed) return void (this.pending = "")
    const text = this.pending
    this.pending = ""
    if (!this.writeHead()) return
    try {
      this.res.write(utf8(text))
    } catch (error) {
      return this.break(error, "chunk")
    }
    if (this.encoding.keepAlive !== undefined) this.armKeepAlive(this.encoding.keepAlive)
    if (this.res.writableLength > HIGH_WATER_BYTES && !this.clientBehind) this.fallBehind()
  }

  // One timer a stream, re-armed only when it fires: a write costs a clock read, not a timer.
  private armKeepAlive(keepAlive: NonNullable<StreamEncoding["keepAlive"]>): void {
    this.lastWriteAt = Date.now()
    if (this.keepAliveTimer !== undefined) return
    const tick = () => {
      if (this.res.writableEnded || this.res.destroyed) return
      const quiet = Date.now() - this.lastWriteAt
      if (quiet >= keepAlive.everyMs) this.push(keepAlive.text)
      this.keepAliveTimer = setTimeout(tick, quiet >= keepAlive.everyMs ? keepAlive.everyMs : keepAlive.everyMs - quiet)
      this.keepAliveTimer.unref()
    }
    this.keepAliveTimer = setTimeout(tick, keepAlive.everyMs)
    this.keepAliveTimer.unref()
  }

  // Past the high-water mark the last write returned false, so 'drain' comes once the socket took it all.
  private fallBehind(): void {
    this.clientBehind = true
    this.drained = drainOf(this.res).then(() => {
      this.clientBehind = false
    })
  }
}
