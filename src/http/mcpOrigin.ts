// Names no DNS answer can move: loopback IP literals, and `localhost`, which browsers keep on loopback.
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"])

/**
 * Whether a request to /mcp with this `Origin` may be served: none (not a
 * browser), one listed in `PARLEY_CORS_ORIGINS` (any with `*`), or parley's
 * own origin under a loopback name. The MCP transport asks servers to check
 * it against DNS rebinding, where a page's name is made to resolve to
 * parley: such a page's origin is the `Host` it sends, so matching the two
 * proves nothing unless the name cannot be rebound.
 */
export const originAllowed = (
  origin: string | undefined,
  host: string | undefined,
  listed: ReadonlyArray<string>
): boolean => {
  if (origin === undefined) return true
  const lower = origin.toLowerCase()
  if (listed.includes("*") || listed.includes(lower)) return true
  if (host === undefined) return false
  try {
    const url = new URL(lower)
    return LOOPBACK.has(url.hostname) && url.host === host.toLowerCase()
  } catch {
    return false
  }
}
