/** Above this many UTF-16 units a turn's text is written as a string (see `utf8`). */
const AS_BUFFER_MAX_UNITS = 16 * 1024

// Where each turn's text is encoded before its bytes are copied out: three bytes a UTF-16 unit are the most it takes.
const scratch = Buffer.allocUnsafe(3 * AS_BUFFER_MAX_UNITS)

/**
 * A turn's text as UTF-8 bytes of its exact size, taken from Node's shared
 * pool when small: encoded in one pass into a buffer kept for it, then
 * copied. The other ways cost more (BENCHMARKS.md, twelfth session):
 * `Buffer.from` and a response given a string measure the text first, a
 * second pass over its pieces; a buffer three times the text's size was a
 * fresh allocation for any turn over 1,365 units, most of a Responses
 * stream's. A long text goes as a string.
 */
export const utf8 = (text: string): Buffer | string => {
  if (text.length > AS_BUFFER_MAX_UNITS) return text
  const size = scratch.write(text)
  const bytes = Buffer.allocUnsafe(size)
  scratch.copy(bytes, 0, 0, size)
  return bytes
}
