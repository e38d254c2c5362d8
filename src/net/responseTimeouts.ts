import type { ClientRequest, IncomingMessage } from "node:http"

/**
 * How long a server may stay silent (docs/DESIGN.md §3.21). A provider that
 * never answers would otherwise hold a client for the whole run with no byte
 * sent; a timeout turns it into a transient failure, retried like a dropped
 * connection.
 */
export interface ResponseTimeouts {
  /** From sending the request to the response's headers. */
  readonly firstByteMs?: number | undefined
  /** The longest gap in the body, the one after the headers included; time a reader holds the body paused does not count. */
  readonly idleMs?: number | undefined
}

/**
 * The server stayed silent too long. `code` is the one a socket timeout
 * has, so the failure reads as a network error: retryable, a ProviderUnavailable.
 */
export class ResponseTimeout extends Error {
  override readonly name = "ResponseTimeout"
  readonly code = "ETIMEDOUT"
  readonly phase: "first-byte" | "idle"
  readonly ms: number

  constructor(phase: "first-byte" | "idle", ms: number) {
    super(phase === "first-byte" ? `no response within ${ms} ms` : `nothing received for ${ms} ms`)
    this.phase = phase
    this.ms = ms
  }
}

/** Destroys `request` with a ResponseTimeout unless its response's headers arrive within `ms`; returns the disarm. */
export const watchFirstByte = (request: ClientRequest, ms: number | undefined): () => void => {
  if (ms === undefined) return noop
  const timer = setTimeout(() => request.destroy(new ResponseTimeout("first-byte", ms)), ms)
  return () => clearTimeout(timer)
}

const noop = () => undefined

/**
 * Destroys `response` with a ResponseTimeout once its socket has read
 * nothing for `ms` while the body was being read. Progress is the socket's
 * byte count, sampled a few times per period: no listener on the body (which
 * would start it flowing before its reader is there) and nothing per chunk.
 * A body nobody reads yet, or one its reader paused (a slow client), is not
 * the server's silence.
 */
export const watchIdle = (response: IncomingMessage, ms: number | undefined): void => {
  if (ms === undefined) return
  const socket = response.socket
  let bytes = socket.bytesRead
  let quietSince = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    if (socket.bytesRead !== bytes || response.readableFlowing !== true) {
      bytes = socket.bytesRead
      quietSince = now
    } else if (now - quietSince >= ms) {
      stop()
      response.destroy(new ResponseTimeout("idle", ms))
    }
  }, Math.max(5, Math.floor(ms / 4)))
  timer.unref()
  const stop = () => clearInterval(timer)
  response.once("end", stop)
  response.once("close", stop)
}
