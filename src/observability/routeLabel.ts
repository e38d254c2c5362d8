import { DOORS, type Protocol, protocols } from "../domain/protocols.ts"

/**
 * The `route` label of a request: one of a fixed set, never the raw path, so
 * a client cannot grow the metrics with made-up paths or sandbox ids.
 */
const ROUTES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/api\/v1\/(models|tools|prompt-types|config-schema)$/, "/api/v1/$1"],
  [/^\/api\/v1\/sandboxes$/, "/api/v1/sandboxes"],
  [/^\/api\/v1\/sandboxes\/[^/]+$/, "/api/v1/sandboxes/:id"],
  [/^\/v1\/models$/, "/v1/models"],
  // A model id holds a `/`: the rest of the path is the id.
  [/^\/v1\/models\/.+$/, "/v1/models/:model"],
  [/^\/admin\/v1(\/|$)/, "/admin/v1"],
  [/^\/console(\/|$)/, "/console"],
  [/^\/(health|ready|metrics|openapi\.json|docs)$/, "/$1"]
]

const known = new Map<string, string>()
const KNOWN_LIMIT = 1_000

/**
 * The protocol a route speaks (docs/DESIGN.md §14), by its `route` label: the
 * metrics' `protocol` label and the request span's `parley.protocol`. Each
 * door's paths are labels of their own, from the door table.
 */
const PROTOCOLS: ReadonlyMap<string, Protocol> = new Map(
  protocols.flatMap((name) => DOORS[name].paths.map((path) => [path, name] as const))
)

/** The protocol of a `route` label; undefined for a route that is no protocol's (the admin API, /health…). */
export const protocolOfRoute = (route: string): Protocol | undefined => PROTOCOLS.get(route)

/** `path` without its query: a door's own path, or one of the set; anything else is `other`. */
export const routeLabel = (path: string): string => {
  const seen = known.get(path)
  if (seen !== undefined) return seen
  const label = PROTOCOLS.has(path) ? path : patternLabel(path)
  // Paths repeat (chat above all); the cache is bounded so sandbox ids cannot grow it.
  if (known.size < KNOWN_LIMIT) known.set(path, label)
  return label
}

const patternLabel = (path: string): string => {
  for (const [pattern, name] of ROUTES) {
    const match = pattern.exec(path)
    if (match !== null) return name.replace("$1", match[1] ?? "")
  }
  return "other"
}
