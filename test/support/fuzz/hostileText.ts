import { Arbitrary, Schema } from "effect"
import fc from "fast-check"

/**
 * What a hostile client puts in every string that can reach a header, a log
 * line, a tool name or an id (issue 32 part 3): NUL, CR and LF (a header's
 * line ending, with what would follow it), a tab, an ESC sequence, DEL and a C1
 * control, bidi marks, a line separator, a byte-order mark, what a header list
 * or an encoding gives meaning to (`,` `%` `;`), quotes, non-Latin-1 text.
 */
export const HOSTILE_PIECES = [
  "\u0000",
  "\r",
  "\n",
  "\r\nSet-Cookie: a=1",
  "\t",
  "\u001b[2J",
  "\u007f",
  "\u0085",
  "\u009b",
  "\u200e",
  "\u202e",
  "\u2066",
  "\u2028",
  "\ufeff",
  ",",
  "%",
  "%0d%0a",
  ";",
  "\"",
  "\\",
  " ",
  "é",
  "工具",
  "🙂"
] as const

/** Halves of a UTF-16 pair without the other: no UTF-8 can say them. */
export const LONE_SURROGATES = ["\ud800", "\udc00", "\udfff\ud800"] as const

const PLAIN = ["a", "web", "_search", "1", "mcp", "tool"] as const

const joined = (
  { after, before, piece }: {
    readonly before: ReadonlyArray<string>
    readonly piece: string
    readonly after: ReadonlyArray<string>
  }
) => before.join("") + piece + after.join("")

/** Text with at least one hostile piece (a lone surrogate when `lone`) amid plain and hostile ones. */
export const hostileText = (lone: boolean): Arbitrary.Arbitrary<string> => {
  const any = Arbitrary.schema(Schema.Literals([...PLAIN, ...HOSTILE_PIECES]))
  return Arbitrary.all({
    before: Arbitrary.array(any, { maxLength: 3 }),
    piece: Arbitrary.schema(Schema.Literals(lone ? LONE_SURROGATES : HOSTILE_PIECES)),
    after: Arbitrary.array(any, { maxLength: 3 })
  }).pipe(Arbitrary.map(joined))
}

/** `hostileText` for fast-check's generators (the `/api/v1/chat` fuzzer's). */
export const hostileTextFc = (lone: boolean): fc.Arbitrary<string> =>
  fc.record({
    before: fc.array(fc.constantFrom(...PLAIN, ...HOSTILE_PIECES), { maxLength: 3 }),
    piece: fc.constantFrom<string>(...(lone ? LONE_SURROGATES : HOSTILE_PIECES)),
    after: fc.array(fc.constantFrom(...PLAIN, ...HOSTILE_PIECES), { maxLength: 3 })
  }).map(joined)

/**
 * `X-Correlation-Id`s a client may send (what an HTTP client lets through a
 * header: no CR, LF or NUL): safe tokens, which are echoed, and others, which
 * are replaced.
 */
export const CORRELATION_IDS = [
  "fuzz-1",
  "tenant/a@b+c",
  "a b",
  "<script>",
  "a%0d%0a",
  "é",
  "a,b",
  "x".repeat(129),
  ""
] as const
