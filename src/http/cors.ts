import type { IncomingMessage, ServerResponse } from "node:http"

const ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE"
const ALLOW_HEADERS = "Authorization, Content-Type, X-Correlation-Id"
// The answers' own headers a page may read (docs/DESIGN.md §3.19).
const EXPOSE_HEADERS = "X-Correlation-Id, X-Message-Pruned, X-Tools-Skipped"
// Browsers cap it (Chromium at 2 h, Firefox at 24 h); ten minutes keeps a changed list from lingering.
const MAX_AGE_SECONDS = "600"

/**
 * Runs first on every request; true when it answered the request itself (a
 * CORS preflight), so nothing else must.
 */
export type CorsCheck = (req: IncomingMessage, res: ServerResponse) => boolean

/**
 * CORS as docs/DESIGN.md §3.19 fixes it: off (undefined) unless origins are
 * listed. A request from a listed origin (any, with `*`) gets
 * `Access-Control-Allow-Origin` on its answer, whatever route or error
 * answers it; a preflight from one is answered here, before authentication
 * (a browser sends no Authorization with it). Other origins get no CORS
 * headers, so the browser keeps the answer from the page.
 */
export const makeCors = (origins: ReadonlyArray<string>): CorsCheck | undefined => {
  if (origins.length === 0) return undefined
  const anyOrigin = origins.includes("*")
  const listed = new Set(origins)
  return (req, res) => {
    const origin = req.headers.origin
    if (origin === undefined || !(anyOrigin || listed.has(origin.toLowerCase()))) return false
    // Set before the route writes its head: Node merges them into it.
    if (anyOrigin) res.setHeader("access-control-allow-origin", "*")
    else {
      res.setHeader("access-control-allow-origin", origin)
      res.setHeader("vary", "Origin")
    }
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
      res.writeHead(204, {
        "access-control-allow-methods": ALLOW_METHODS,
        "access-control-allow-headers": ALLOW_HEADERS,
        "access-control-max-age": MAX_AGE_SECONDS
      })
      res.end()
      return true
    }
    res.setHeader("access-control-expose-headers", EXPOSE_HEADERS)
    return false
  }
}
