import type { Protocol } from "../domain/protocols.ts"

/**
 * The `route` label of a request: one of a fixed set, never the raw path, so
 * a client cannot grow the metrics with made-up paths or sandbox ids.
 */
const ROUTES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/api\/v1\/chat$/, "/api/v1/chat"],
  [/^\/api\/v1\/(models|tools|prompt-types|config-schema)$/, "/api/v1/$1"],
  [/^\/api\/v1\/sandboxes$/, "/api/v1/sandboxes"],
  [/^\/api\/v1\/sandboxes\/[^/]+$/, "/api/v1/sandboxes/:id"],
  [/^\/v1\/chat\/completions$/, "/v1/chat/completions"],
  [/^\/v1\/responses$/, "/v1/responses"],
  [/^\/v1\/messages(\/count_tokens)?$/, "/v1/messages$1"],
  [/^\/v1\/models$/, "/v1/models"],
  // A model id holds a `/`: the rest of the path is the id.
  [/^\/v1\/models\/.+$/, "/v1/models/:model"],
  [/^\/admin\/v1(\/|$)/, "/admin/v1"],
  [/^\/console(\/|$)/, "/console"],
  [/^\/(health|ready|metrics|openapi\.json|docs|mcp)$/, "/$1"]
]

const known = new Map<string, string>()
const KNOWN_LIMIT = 1_000

/**
 * The protocol a route speaks (docs/DESIGN.md §14), by its `route` label: the
 * metrics' `protocol` label and the request span's `parley.protocol`. A
 * protocol's door adds its route here as it adds its row to the hot routes.
 */
const PROTOCOLS: ReadonlyMap<string, Protocol> = new Map([
  ["/api/v1/chat", "ui"],
  ["/v1/chat/completions", "chat-completions"],
  ["/v1/responses", "responses"],
  ["/v1/messages", "messages"],
  ["/v1/messages/count_tokens", "messages"],
  ["/mcp", "mcp"]
])

/** The protocol of a `route` label; undefined for a route that is no protocol's (the admin API, /health…). */
export const protocolOfRoute = (route: string): Protocol | undefined => PROTOCOLS.get(route)

/** `path` without its query; anything not in the set is `other`. */
export const routeLabel = (path: string): string => {
  const seen = known.get(path)
  if (seen !== undefined) return seen
  let label = "other"
  for (const [pattern, name] of ROUTES) {
    const match = pattern.exec(path)
    if (match !== null) {
      label = name.replace("$1", match[1] ?? "")
      break
    }
  }
  // Paths repeat (chat above all); the cache is bounded so sandbox ids cannot grow it.
  if (known.size < KNOWN_LIMIT) known.set(path, label)
  return label
}
