const LF = 0x0a
const CR = 0x0d
const SPACE = 0x20
const BOM = Buffer.from([0xef, 0xbb, 0xbf])

const isDataField = (line: Buffer, start: number, end: number): boolean =>
  end - start >= 4 && line[start] === 0x64 && line[start + 1] === 0x61 && line[start + 2] === 0x74 &&
  line[start + 3] === 0x61 && (end - start === 4 || line[start + 4] === 0x3a)

/**
 * The `data` of each event in a server-sent event stream, split from the
 * response's Buffers as they arrive: what `TextDecoderStream` +
 * `EventSourceParserStream` hand the AI SDK, without the web streams.
 *
 * Lines end at LF, CR or CRLF and are split as bytes (neither byte occurs
 * inside a multi-byte UTF-8 character), so only `data` values are decoded.
 * A blank line dispatches the event's `data` lines joined by "\n"; other
 * fields and comments are dropped (the AI SDK reads only `data`). As in
 * eventsource-parser, a CR that ends the bytes received so far counts only
 * once a later chunk brings a line end (it may be half of a CRLF), and an
 * event still open when the stream ends is never dispatched. A leading
 * UTF-8 BOM is skipped, as `TextDecoder` does.
 */
export class SseDataSplitter {
  private readonly onData: (data: string) => void
  /** Received bytes of a line whose end has not arrived yet. */
  private pending: Array<Buffer> = []
  private atStart = true
  private data = ""
  private dataLines = 0

  constructor(onData: (data: string) => void) {
    this.onData = onData
  }

  push(chunk: Buffer): void {
    let bytes = chunk
    if (this.pending.length > 0) {
      // A long line arrives in many chunks: join them once, when it ends.
      if (!this.atStart && chunk.indexOf(LF) === -1 && chunk.indexOf(CR) === -1) return void this.pending.push(chunk)
      this.pending.push(chunk)
      bytes = Buffer.concat(this.pending)
      this.pending = []
    }
    if (this.atStart) {
      const head = Math.min(bytes.length, BOM.length)
      if (bytes.compare(BOM, 0, head, 0, head) === 0) {
        if (bytes.length < BOM.length) return void this.pending.push(bytes)
        bytes = bytes.subarray(BOM.length)
      }
      this.atStart = false
    }
    const withCR = bytes.indexOf(CR) !== -1
    let start = 0
    for (;;) {
      let end = bytes.indexOf(LF, start)
      if (withCR) {
        const cr = bytes.indexOf(CR, start)
        if (cr !== -1 && (end === -1 || cr < end)) {
          if (cr === bytes.length - 1) break
          end = cr
        }
      }
      if (end === -1) break
      this.line(bytes, start, end)
      start = bytes[end] === CR && bytes[end + 1] === LF ? end + 2 : end + 1
    }
    // A copy: a view would keep the whole network chunk alive until the line ends.
    if (start < bytes.length) this.pending.push(Buffer.from(bytes.subarray(start)))
  }

  private line(bytes: Buffer, start: number, end: number): void {
    if (start === end) {
      if (this.dataLines > 0) {
        const data = this.data
        this.data = ""
        this.dataLines = 0
        this.onData(data)
      }
      return
    }
    if (!isDataField(bytes, start, end)) return
    let valueStart = start + 5
    if (valueStart < end && bytes[valueStart] === SPACE) valueStart++
    const value = valueStart >= end ? "" : bytes.toString("utf8", valueStart, end)
    this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`
    this.dataLines++
  }
}
