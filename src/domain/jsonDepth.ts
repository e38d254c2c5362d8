/**
 * The deepest nesting of arrays and objects a request body may have
 * (docs/DESIGN.md §3.9). Real requests stay far below it (a tool input inside
 * a part inside a message is 5 levels down); deeper values make every
 * recursive walk over them (JSON.stringify, schema checks, token counting)
 * a stack overflow.
 */
export const MAX_JSON_DEPTH = 64

const QUOTE = 34
const BACKSLASH = 92
const OPEN_BRACE = 123
const OPEN_BRACKET = 91
const CLOSE_BRACE = 125
const CLOSE_BRACKET = 93

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
const isEscaped = (text: string, at: number): boolean => {
  let backslashes = 0
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++
  return backslashes % 2 === 1
}

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, found
 * without parsing: brackets are counted outside strings, and strings are
 * skipped with `indexOf` (a large data: URL costs one search, not a loop per
 * character). Malformed text may be judged either way; the parser that runs
 * next reports it.
 */
export const nestsDeeperThan = (text: string, limit: number): boolean => {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === QUOTE) {
      let end = text.indexOf("\"", i + 1)
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf("\"", end + 1)
      if (end === -1) return false
      i = end
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return true
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--
    }
  }
  return false
}

/**
 * JSON text a model streamed (a tool call's arguments), parsed when it is
 * JSON no deeper than a body may be; `undefined` otherwise, for the caller to
 * keep as it is: deeper, the value would overflow the serializer of the
 * answer it goes into.
 */
export const shallowJson = (text: string): unknown => {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
