import type { ServerResponse } from "node:http"
import type { ClientPace } from "../agent/ClientPace.ts"
import type { RunEvent } from "../agent/RunEvent.ts"
import type { ProviderFailure } from "../models/ProviderFailure.ts"
import type { WriteFailed, WriteStage } from "./answerWrites.ts"
import type { ApiFailure } from "./errorTable.ts"
import type { KeptStream } from "./KeptStream.ts"
import { utf8 } from "./utf8Bytes.ts"

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
 * A streamed run's answer as its route follows it (an HTTP response's `SseWriter`, a WebSocket turn's
 * `SocketWriter`): the agent's events go to `emit`, and it is the run's `ClientPace`.
 */
export interface AnswerStream extends ClientPace {
  readonly emit: (event: RunEvent) => void
  /** The run ended (normally, or having told its failure). */
  readonly end: () => void
  /** The answer broke off after it began: the protocol's ending for it. */
  readonly fail: (failure: ApiFailure | undefined) => void
  /** Something was sent. */
  readonly started: boolean
  /** `Date.now()` when the answer's first byte went out (the usage ledger's time to first byte). */
  readonly firstByteAt: number | undefined
  /** The provider failure the run's `error` event told, if one did. */
  readonly failure: ProviderFailure | undefined
}

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
export class SseWriter implements AnswerStream {
  private readonly res: ServerResponse
  private readonly headers: Record<string, string>
  private readonly encoding: StreamEncoding
  private readonly kept: KeptStream | undefined
  private pending = ""
  private scheduled = false
  private drained: Promise<void> = Promise.resolve()
  private lastWriteAt = 0
  private keepAliveTimer: ReturnType<typeof setTimeout> | undefined = undefined
  private readonly writeFailed: WriteFailed
  /** A write threw: nothing more goes to the socket but a broken answer's ending. */
  private broken = false
  private closed = false
  started = false
  private clientBehind = false
  /** `Date.now()` when the status line went out (the usage ledger's time to first byte). */
  firstByteAt: number | undefined = undefined
  /** The provider failure the run's `error` event told, if one did. */
  failure: ProviderFailure | undefined = undefined

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
    this.res = res
    this.headers = headers
    this.encoding = encoding
    this.writeFailed = writeFailed
    this.kept = kept
  }

  readonly emit = (event: RunEvent): void => {
    let text: string
    try {
      if (event.type !== "error") text = this.encoding.chunk(event)
      else {
        this.failure = event.failure
        text = this.encoding.failure(event.failure)
      }
    } catch (error) {
      return this.break(error, "chunk")
    }
    this.push(text)
  }

  private push(text: string): void {
    if (this.closed) return
    this.started = true
    this.kept?.add(text)
    if (this.broken) return
    this.pending += text
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.flush)
  }

  /** The run ended (normally, or having told its failure). */
  end(): void {
    if (this.closed) return
    let last: string
    try {
      last = this.encoding.end()
    } catch (error) {
      // Told, the route ends the answer as a broken one (`fail`).
      return this.break(error, "end")
    }
    this.close(last)
  }

  /**
   * The answer broke off after the response started (docs/DESIGN.md §3.3, §8): the protocol's ending for it.
   * After a write threw, that ending is all the socket gets, and only once the head went out: before, the
   * route answers with an error body; an ending that cannot be made or written cuts the connection.
   */
  fail(failure: ApiFailure | undefined): void {
    if (this.closed) return
    let last: string | undefined
    try {
      last = this.encoding.broken(failure)
    } catch (error) {
      this.break(error, "end")
    }
    this.close(last)
  }

  private close(last: string | undefined): void {
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

  private break(error: unknown, stage: WriteStage): void {
    if (this.broken) return
    this.broken = true
    this.pending = ""
    clearTimeout(this.keepAliveTimer)
    this.writeFailed(error, stage)
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
