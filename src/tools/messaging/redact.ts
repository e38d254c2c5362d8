import { Redacted } from "effect"

const MIN_FRAGMENT = 8

/**
 * The parts of a secret that could show up alone in a remote error text: the
 * whole value and, for a URL, its last path segment and its query values
 * (where webhook keys live: `…/hook/<token>`, `…/send?key=<key>`).
 */
const fragmentsOf = (secret: string): ReadonlyArray<string> => {
  const fragments = [secret]
  if (URL.canParse(secret)) {
    const url = new URL(secret)
    fragments.push(url.pathname.split("/").at(-1) ?? "", ...url.searchParams.values())
  }
  return fragments.filter((fragment) => fragment.length >= MIN_FRAGMENT)
}

/** `text` with every secret (and every telling fragment of one) replaced; longest first, so no piece survives. */
export const scrub = (text: string, secrets: ReadonlyArray<Redacted.Redacted<string>>): string =>
  secrets
    .flatMap((secret) => fragmentsOf(Redacted.value(secret)))
    .sort((a, b) => b.length - a.length)
    .reduce((scrubbed, fragment) => scrubbed.replaceAll(fragment, "[redacted]"), text)

/** A short, single-line, scrubbed excerpt of a remote answer, fit for a tool error. */
export const excerpt = (text: string, secrets: ReadonlyArray<Redacted.Redacted<string>>, max = 160): string => {
  const line = scrub(text, secrets).replace(/\s+/g, " ").trim()
  return line.length <= max ? line : `${line.slice(0, max)}…`
}
