import type { ServerResponse } from "node:http"
import type { ErrorBody } from "./errorResponse.ts"

/** One JSON answer, written in one piece with its length. */
export const writeJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string>) => {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text)
  })
  res.end(text)
}

/** An error body; 401s go without the correlation id header (docs/DESIGN.md §3.7). */
export const writeError = (res: ServerResponse, error: ErrorBody, correlationId: string) =>
  writeJson(res, error.status, error.body, {
    ...error.headers,
    ...(error.status === 401 ? {} : { "x-correlation-id": correlationId })
  })
