/**
 * Keeps the first `headBytes` and the last `tailBytes` of a stream and
 * counts the rest, so endless output costs bounded memory while the start
 * (what ran) and the end (how it ended) both survive.
 */
export class OutputCapture {
  private readonly head: Array<Buffer> = []
  private headLength = 0
  private tail: Array<Buffer> = []
  private tailLength = 0
  /** Every byte seen, kept or not. */
  total = 0

  private readonly headBytes: number
  private readonly tailBytes: number

  constructor(headBytes: number, tailBytes: number) {
    this.headBytes = headBytes
    this.tailBytes = tailBytes
  }

  push(chunk: Buffer): void {
    this.total += chunk.length
    let rest = chunk
    if (this.headLength < this.headBytes) {
      const taken = rest.subarray(0, this.headBytes - this.headLength)
      this.head.push(taken)
      this.headLength += taken.length
      rest = rest.subarray(taken.length)
    }
    if (rest.length === 0 || this.tailBytes === 0) return
    this.tail.push(rest)
    this.tailLength += rest.length
    while (this.tailLength - (this.tail[0]?.length ?? 0) >= this.tailBytes) {
      this.tailLength -= this.tail.shift()?.length ?? 0
    }
  }

  get truncated(): boolean {
    return this.total > this.headLength + Math.min(this.tailLength, this.tailBytes)
  }

  bytes(): Buffer {
    const tail = Buffer.concat(this.tail)
    return Buffer.concat([...this.head, tail.subarray(Math.max(0, tail.length - this.tailBytes))])
  }

  /** The kept text; a marker says how much was dropped between head and tail. */
  text(): string {
    const head = Buffer.concat(this.head)
    const tail = Buffer.concat(this.tail)
    const keptTail = tail.subarray(Math.max(0, tail.length - this.tailBytes))
    const dropped = this.total - head.length - keptTail.length
    if (dropped === 0) return Buffer.concat([head, keptTail]).toString("utf8")
    return `${head.toString("utf8")}\n[… ${dropped} bytes omitted …]\n${keptTail.toString("utf8")}`
  }
}
