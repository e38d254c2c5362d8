/**
 * Whether a request to /mcp with this `Origin` may be served: none (not a
 * browser), the server's own origin, or one listed in `PARLEY_CORS_ORIGINS`
 * (any with `*`). The MCP transport asks servers to check it, since a page
 * reached by DNS rebinding would otherwise talk to a local parley.
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
    return new URL(lower).host === host.toLowerCase()
  } catch {
    return false
  }
}
