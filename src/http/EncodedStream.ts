import type { EventEmitter } from "node:events"
import type { ClientPace } from "../agent/ClientPace.ts"
import type { RunEvent } from "../agent/RunEvent.ts"
import type { ProviderFailure } from "../models/ProviderFailure.ts"
import type { WriteFailed, WriteStage } from "./answerWrites.ts"
import type { ApiFailure } from "./errorTable.ts"

/** How a protocol writes a run as server-sent events (docs/DESIGN.md §14); a WebSocket carries their data. */
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
 * What every answer stream shares: each event through the door's encoding,
 * the ending of a run that ended (`end`) or broke off (`fail`), and a throw
 * of the encoding or of a write told once to `writeFailed` (docs/DESIGN.md
 * §3.25), never thrown. A transport says how text leaves (`push`, `close`)
 * and what it drops once broken (`dropped`).
 */
export abstract class EncodedStream implements AnswerStream {
  protected readonly encoding: StreamEncoding
  private readonly writeFailed: WriteFailed
  /** A write threw: nothing more goes to the client but a broken answer's ending. */
  protected broken = false
  protected closed = false
  started = false
  firstByteAt: number | undefined = undefined
  failure: ProviderFailure | undefined = undefined

  constructor(encoding: StreamEncoding, writeFailed: WriteFailed) {
    this.encoding = encoding
    this.writeFailed = writeFailed
  }

  abstract readonly behind: boolean
  abstract readonly caughtUp: () => Promise<void>
  /** An event's text, to send. */
  protected abstract push(text: string): void
  /** The answer's last text (none: a broken answer whose ending could not be made); once. */
  protected abstract close(last: string | undefined): void
  /** Broken: what waits to be sent is dropped. */
  protected abstract dropped(): void

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
   * The answer broke off after it began (docs/DESIGN.md §3.3, §8): the protocol's ending for it. After a
   * write threw, that ending is all the client gets; an ending that cannot be made cuts the connection.
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

  protected break(error: unknown, stage: WriteStage): void {
    if (this.broken) return
    this.broken = true
    this.dropped()
    this.writeFailed(error, stage)
  }
}

/** Resolves once `stream` took all it held ('drain') or its client left ('close'): a client behind caught up. */
export const drainOf = (stream: EventEmitter): Promise<void> =>
  new Promise((resolve) => {
    const caughtUp = () => {
      stream.off("drain", caughtUp)
      stream.off("close", caughtUp)
      resolve()
    }
    stream.on("drain", caughtUp)
    stream.on("close", caughtUp)
  })
