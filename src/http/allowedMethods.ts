import type { ContractRoute } from "../api/contractRoutes.ts"

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

// A `:name` segment matches any one segment, as the router matches it.
const patternOf = (path: string): RegExp =>
  new RegExp(
    `^${path.split("/").map((segment) => segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment)).join("/")}$`
  )

/**
 * The methods a path answers, from the routes the gateway serves: an unknown
 * method on a known path is 405 with them in `Allow` (docs/DESIGN.md §3.22),
 * an unknown path 404. Runs only for requests the router found no route for.
 */
export const allowedMethods = (routes: ReadonlyArray<ContractRoute>) => {
  const compiled = routes.map((route) => ({ method: route.method, pattern: patternOf(route.path) }))
  return (path: string): ReadonlyArray<string> => {
    const matching = new Set(compiled.filter((route) => route.pattern.test(path)).map((route) => route.method))
    // The router answers HEAD wherever it answers GET.
    if (matching.has("GET")) matching.add("HEAD")
    return [...matching].sort()
  }
}
