import type { ServerResponse } from "node:http"
import type { ClientPace } from "../agent/ClientPace.ts"
import type { RunEvent } from "../agent/RunEvent.ts"
import type { ProviderFailure } from "../models/ProviderFailure.ts"
import type { ApiFailure } from "./errorTable.ts"
import type { KeptStream } from "./KeptStream.ts"

/** How a protocol writes a run as server-sent events (docs/DESIGN.md §14). */
export interface StreamEncoding {
  /** Headers of every stream of the protocol, under the answer's own. */
  readonly headers: Readonly<Record<string, string>>
  /** A run event as the protocol writes it (an `error` event goes to `failure`). */
  readonly chunk: (event: RunEvent) => string
  /** The provider failed after the stream began (the run's `error` event); the run's own closing events follow. */
  readonly failure: (failure: ProviderFailure) => string
  /**
   * The text that ends a stream whose run ended: asked for then, once what the protocol keeps of it is kept.
   * A method, not a getter: an object literal's getter made per stream keeps the stream's objects past two
   * scavenges (docs/DESIGN.md §12).
   */
  readonly end: () => string
  /** The whole answer the stream told, once its run ended: what `ChatProtocol.keep` keeps. */
  readonly whole?: (() => unknown) | undefined
  /** Ends a stream that broke off outside the run; `undefined` for a failure nothing expected. */
  readonly broken: (failure: ApiFailure | undefined) => string
  /**
   * An event sent once the stream began whenever nothing else was sent for
   * `everyMs` (Anthropic's `ping`), so that proxies and clients do not take a
   * long tool call for a dead connection.
   */
  readonly keepAlive?: { readonly everyMs: number; readonly text: string } | undefined
}

/**
 * How much a slow client may leave in the response's buffer before the run
 * waits for it. One slow stream then holds about this much, plus what one
 * turn of the event loop reads from the provider.
 */
const HIGH_WATER_BYTES = 1024 * 1024

/** Above this many UTF-16 units a turn's text is written as a string (see `utf8`). */
const AS_BUFFER_MAX_UNITS = 16 * 1024

// Where each turn's text is encoded before its bytes are copied out: three bytes a UTF-16 unit are the most it takes.
const scratch = Buffer.allocUnsafe(3 * AS_BUFFER_MAX_UNITS)

/**
 * A turn's text as UTF-8 bytes of its exact size, taken from Node's shared
 * pool when small: encoded in one pass into a buffer kept for it, then
 * copied. The other ways cost more (BENCHMARKS.md, twelfth session):
 * `Buffer.from` and a response given a string measure the text first, a
 * second pass over its pieces; a buffer three times the text's size was a
 * fresh allocation for any turn over 1,365 units, most of a Responses
 * stream's. A long text goes as a string.
 */
const utf8 = (text: string): Buffer | string => {
  if (text.length > AS_BUFFER_MAX_UNITS) return text
  const size = scratch.write(text)
  const bytes = Buffer.allocUnsafe(size)
  scratch.copy(bytes, 0, 0, size)
  return bytes
}

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
 */
export class SseWriter implements ClientPace {
  private readonly res: ServerResponse
  private readonly headers: Record<string, string>
  private readonly encoding: StreamEncoding
  private readonly kept: KeptStream | undefined
  private pending = ""
  private scheduled = false
  private drained: Promise<void> = Promise.resolve()
  private lastWriteAt = 0
  private keepAliveTimer: ReturnType<typeof setTimeout> | undefined = undefined
  started = false
  private clientBehind = false
  /** `Date.now()` when the status line went out (the usage ledger's time to first byte). */
  firstByteAt: number | undefined = undefined
  /** The provider failure the run's `error` event told, if one did. */
  failure: ProviderFailure | undefined = undefined

  /** `kept`: a resumable run's stream (docs/DESIGN.md §16) takes every text too, the client there or not. */
  constructor(res: ServerResponse, headers: Record<string, string>, encoding: StreamEncoding, kept?: KeptStream) {
    this.res = res
    this.headers = headers
    this.encoding = encoding
    this.kept = kept
  }

  readonly emit = (event: RunEvent): void => {
    if (event.type !== "error") return this.push(this.encoding.chunk(event))
    this.failure = event.failure
    this.push(this.encoding.failure(event.failure))
  }

  private push(text: string): void {
    this.started = true
    this.kept?.add(text)
    this.pending += text
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.flush)
  }

  /** The run ended (normally, or having told its failure). */
  end(): void {
    this.close(this.encoding.end())
  }

  /** The answer broke off after the response started (docs/DESIGN.md §3.3, §8): the protocol's ending for it. */
  fail(failure: ApiFailure | undefined): void {
    this.close(this.encoding.broken(failure))
  }

  private close(last: string): void {
    clearTimeout(this.keepAliveTimer)
    if (this.kept !== undefined) {
      this.kept.add(last)
      this.kept.end()
    }
    this.writeHead()
    const text = this.pending + last
    this.pending = ""
    // A run answered at once (an accepted background response) has written its answer already.
    if (!this.res.writableEnded) this.res.end(text === "" ? text : utf8(text))
  }

  private writeHead(): void {
    if (this.res.headersSent) return
    this.firstByteAt = Date.now()
    this.res.writeHead(200, { ...this.encoding.headers, ...this.headers, "content-type": "text/event-stream" })
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
    this.writeHead()
    const text = this.pending
    this.pending = ""
    this.res.write(utf8(text))
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
    const res = this.res
    this.drained = new Promise((resolve) => {
      const caughtUp = () => {
        res.off("drain", caughtUp)
        res.off("close", caughtUp)
        this.clientBehind = false
        resolve()
      }
      res.on("drain", caughtUp)
      res.on("close", caughtUp)
    })
  }
}
