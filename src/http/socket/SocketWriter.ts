import type { RunEvent } from "../../agent/RunEvent.ts"
import type { ProviderFailure } from "../../models/ProviderFailure.ts"
import type { WriteFailed, WriteStage } from "../answerWrites.ts"
import type { ApiFailure } from "../errorTable.ts"
import type { AnswerStream, StreamEncoding } from "../SseWriter.ts"
import type { SocketChannel } from "./SocketChannel.ts"

/**
 * The `data` of each server-sent event in `text`, but `[DONE]`, onto `out`:
 * a WebSocket carries the same events as messages (docs/DESIGN.md §14). Each
 * encoding writes an event's data on one line (JSON has no raw line breaks).
 */
export const eventData = (text: string, out: Array<string>): void => {
  let at = 0
  for (;;) {
    const start = text.indexOf("data: ", at)
    if (start === -1) return
    const end = text.indexOf("\n", start)
    const stop = end === -1 ? text.length : end
    // Only a line's start: `data: ` inside an event's name or a comment is not one.
    if (start === 0 || text.charCodeAt(start - 1) === 10) {
      const data = text.slice(start + 6, stop)
      if (data !== "[DONE]") out.push(data)
    }
    at = stop
  }
}

/**
 * A WebSocket turn's answer (docs/DESIGN.md §14): the agent's events in the
 * door's streaming encoding, each event one text message, those emitted in
 * one turn of the event loop sent together. Like `SseWriter`, no write
 * throws out of it: one that throws breaks the writer, which tells
 * `writeFailed` once. `sent` sees each message (a session remembers the
 * response a turn completed).
 */
export class SocketWriter implements AnswerStream {
  private readonly channel: SocketChannel
  private readonly encoding: StreamEncoding
  private readonly writeFailed: WriteFailed
  private readonly sent: ((data: string) => void) | undefined
  private pending: Array<string> = []
  private scheduled = false
  private broken = false
  private closed = false
  started = false
  firstByteAt: number | undefined = undefined
  failure: ProviderFailure | undefined = undefined

  constructor(
    channel: SocketChannel,
    encoding: StreamEncoding,
    writeFailed: WriteFailed,
    sent?: (data: string) => void
  ) {
    this.channel = channel
    this.encoding = encoding
    this.writeFailed = writeFailed
    this.sent = sent
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
    if (this.broken || text === "") return
    eventData(text, this.pending)
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.flush)
  }

  end(): void {
    if (this.closed) return
    let last: string
    try {
      last = this.encoding.end()
    } catch (error) {
      return this.break(error, "end")
    }
    this.close(last)
  }

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
    if (this.closed) return
    // Its last events: an answer that broke before anything was sent is the route's error message instead.
    if (last !== undefined && (this.started || !this.broken)) {
      this.started = true
      eventData(last, this.pending)
    }
    this.closed = true
    this.flush()
  }

  private break(error: unknown, stage: WriteStage): void {
    if (this.broken) return
    this.broken = true
    this.pending = []
    this.writeFailed(error, stage)
  }

  get behind(): boolean {
    return this.channel.behind
  }

  readonly caughtUp = (): Promise<void> => this.channel.caughtUp()

  private readonly flush = (): void => {
    this.scheduled = false
    if (this.pending.length === 0) return
    const messages = this.pending
    this.pending = []
    if (this.channel.gone) return
    this.firstByteAt ??= Date.now()
    try {
      if (this.sent !== undefined) { for (const message of messages) this.sent(message) }
      this.channel.send(messages)
    } catch (error) {
      this.break(error, "chunk")
    }
  }
}
