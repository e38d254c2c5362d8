/**
 * What a response header may carry of a request's text (docs/DESIGN.md
 * §3.7): a safe token as it is, anything else percent-encoded. Node refuses a
 * header holding a character outside Latin-1 or a control character, and a
 * client or proxy may read CR, LF or a bidi mark as something else.
 */
const SAFE_TOKEN = /^[A-Za-z0-9._:/@+-]{1,128}$/

/** A short token of letters, digits and `._:/@+-`: what a header carries of a client's text unencoded. */
export const isSafeToken = (text: string): boolean => SAFE_TOKEN.test(text)

const HEX = Array.from({ length: 256 }, (_, byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`)

// RFC 3986's unreserved characters: A–Z, a–z, 0–9, `-`, `.`, `_`, `~`.
const isUnreserved = (byte: number): boolean =>
  (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) ||
  byte === 0x2d || byte === 0x2e || byte === 0x5f || byte === 0x7e

/**
 * A name as a header carries it: itself when a safe token, else its UTF-8
 * bytes percent-encoded with RFC 3986's unreserved characters kept, so
 * `decodeURIComponent` gives it back. Never throws: a lone surrogate, which
 * decoding refuses before a name gets here, would be U+FFFD's bytes.
 */
export const headerToken = (text: string): string => {
  if (isSafeToken(text)) return text
  let encoded = ""
  for (const byte of Buffer.from(text, "utf8")) encoded += isUnreserved(byte) ? String.fromCharCode(byte) : HEX[byte]
  return encoded
}

/**
 * Names as one header's comma-separated list, each a `headerToken`, at most
 * `maxLength` characters in all: the names that would go past it are left out,
 * so that a body listing thousands of names cannot make a head that a proxy
 * (nginx keeps 4 KiB by default) or a client refuses.
 */
export const headerList = (names: ReadonlyArray<string>, maxLength: number): string => {
  let list = ""
  for (const name of names) {
    const token = headerToken(name)
    const next = list === "" ? token : `${list},${token}`
    if (next.length > maxLength) break
    list = next
  }
  return list
}
