import type { WriteFailed } from "../answerWrites.ts"
import { EncodedStream, type StreamEncoding } from "../EncodedStream.ts"
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
 * one turn of the event loop sent together. `sent` sees each message (a
 * session remembers the response a turn completed).
 */
export class SocketWriter extends EncodedStream {
  private readonly channel: SocketChannel
  private readonly sent: ((data: string) => void) | undefined
  private pending: Array<string> = []
  private scheduled = false

  constructor(
    channel: SocketChannel,
    encoding: StreamEncoding,
    writeFailed: WriteFailed,
    sent?: (data: string) => void
  ) {
    super(encoding, writeFailed)
    this.channel = channel
    this.sent = sent
  }

  protected push(text: string): void {
    if (this.closed) return
    this.started = true
    if (this.broken || text === "") return
    eventData(text, this.pending)
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.flush)
  }

  // After a write threw, the ending goes only if something was sent: before, the route sends an error message.
  protected close(last: string | undefined): void {
    if (this.closed) return
    if (last !== undefined && (this.started || !this.broken)) {
      this.started = true
      eventData(last, this.pending)
    }
    this.closed = true
    this.flush()
  }

  protected dropped(): void {
    this.pending = []
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
