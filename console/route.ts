import { useEffect, useState } from "preact/hooks"

/**
 * Pages live in the URL's fragment (`#/keys/key_…`): the server serves one
 * page at /console, and back, forward and reload keep the place.
 */
export const useRoute = (): ReadonlyArray<string> => {
  const read = () => location.hash.replace(/^#\/?/, "").split("/").filter((part) => part !== "").map(decodeURIComponent)
  const [route, setRoute] = useState(read)
  useEffect(() => {
    const changed = () => setRoute(read())
    addEventListener("hashchange", changed)
    return () => removeEventListener("hashchange", changed)
  }, [])
  return route
}

export const href = (...parts: ReadonlyArray<string>) => `#/${parts.map(encodeURIComponent).join("/")}`
