import type { UIMessageChunk } from "ai"
import type { ServerResponse } from "node:http"
import { DONE, encodeChunk, encodeFailure, sseHeaders } from "./sse.ts"

/**
 * Writes the agent's chunks to the socket as they are emitted. The response
 * starts (200 and headers) with the first chunk, so a run that fails before
 * emitting anything can still answer with a normal HTTP error. Chunks that
 * arrive together (one upstream read yields many) leave in one write: the
 * response is corked until the current tick's work is done.
 */
export class SseWriter {
  private readonly res: ServerResponse
  private readonly headers: Record<string, string>
  private corked = false
  started = false

  constructor(res: ServerResponse, headers: Record<string, string>) {
    this.res = res
    this.headers = headers
  }

  readonly emit = (chunk: UIMessageChunk): void => {
    this.start()
    if (!this.corked) {
      this.corked = true
      this.res.cork()
      process.nextTick(this.uncork)
    }
    this.res.write(encodeChunk(chunk))
  }

  /** The run ended normally. */
  end(): void {
    this.start()
    this.uncork()
    this.res.end(DONE)
  }

  /** The run failed after the response started (DESIGN §3.3): an error chunk, a finish chunk, then the end. */
  fail(errorText: string): void {
    this.uncork()
    this.res.end(encodeFailure(errorText))
  }

  private start(): void {
    if (this.started) return
    this.started = true
    this.res.writeHead(200, { ...sseHeaders, ...this.headers, "content-type": "text/event-stream" })
  }

  // Node loses what was written when a response ends while corked, so end() uncorks first.
  private readonly uncork = (): void => {
    if (!this.corked) return
    this.corked = false
    this.res.uncork()
  }
}
