import { useEffect, useState } from "preact/hooks"

/**
 * Pages live in the URL's fragment (`#/keys/key_…`): the server serves one
 * page at /console, and back, forward and reload keep the place.
 */
export const currentRoute = (): ReadonlyArray<string> =>
  location.hash.replace(/^#\/?/, "").split("/").filter((part) => part !== "").map(decodeURIComponent)

export const useRoute = (): ReadonlyArray<string> => {
  const [route, setRoute] = useState(currentRoute)
  useEffect(() => {
    const changed = () => setRoute(currentRoute())
    addEventListener("hashchange", changed)
    return () => removeEventListener("hashchange", changed)
  }, [])
  return route
}

export const href = (...parts: ReadonlyArray<string>) => `#/${parts.map(encodeURIComponent).join("/")}`

/** Moves to a page in place of the current one (back does not return to it), without a `hashchange`. */
export const replaceRoute = (...parts: ReadonlyArray<string>) => history.replaceState(null, "", href(...parts))
