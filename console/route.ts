import { useEffect, useMemo, useState } from "preact/hooks"

/**
 * Pages live in the URL's fragment (`#/keys/key_…`): the server serves one
 * page at /console, and back, forward and reload keep the place.
 */
const routeOf = (hash: string): ReadonlyArray<string> =>
  hash.replace(/^#\/?/, "").split("/").filter((part) => part !== "").map(decodeURIComponent)

export const currentRoute = (): ReadonlyArray<string> => routeOf(location.hash)

export const useRoute = (): ReadonlyArray<string> => {
  const [hash, setHash] = useState(() => location.hash)
  useEffect(() => {
    const changed = () => setHash(location.hash)
    addEventListener("hashchange", changed)
    // A change between the first drawing and now fired its event before anyone listened.
    changed()
    return () => removeEventListener("hashchange", changed)
  }, [])
  return useMemo(() => routeOf(hash), [hash])
}

export const href = (...parts: ReadonlyArray<string>) => `#/${parts.map(encodeURIComponent).join("/")}`

/** Moves to a page in place of the current one (back does not return to it), without a `hashchange`. */
export const replaceRoute = (...parts: ReadonlyArray<string>) => history.replaceState(null, "", href(...parts))
