import { STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"
import type { ErrorBody } from "../errorResponse.ts"

/**
 * An upgrade refused: an HTTP answer in the door's error envelope on the raw
 * socket (Node hands an upgrade over before any response exists), then the
 * connection closed. 401s go without the correlation id (docs/DESIGN.md §3.7).
 * The header values are the error table's and parley's own ids, never client text.
 */
export const refuseUpgrade = (socket: Duplex, error: ErrorBody, correlationId: string): void => {
  if (socket.destroyed) return
  const text = JSON.stringify(error.body)
  const headers: Record<string, string | number> = {
    ...error.headers,
    ...(error.status === 401 ? {} : { "x-correlation-id": correlationId }),
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    connection: "close"
  }
  let head = `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? "Error"}\r\n`
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`
  socket.end(`${head}\r\n${text}`)
}
