import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { headerList, headerToken, isSafeToken } from "../../src/http/headerTokens.ts"

// What Node's `validateHeaderValue` lets through, less the tab and the space a list item must not hold.
const HEADER_SAFE = /^[\x21-\x7e]*$/

describe("header tokens (docs/DESIGN.md §3.24)", () => {
  it("keeps a safe token as it is", () => {
    for (const name of ["web_search", "docs__search", "a.b:c/d@e+f-g", "x".repeat(128)]) {
      expect(isSafeToken(name)).toBe(true)
      expect(headerToken(name)).toBe(name)
    }
  })

  it("percent-encodes anything else as UTF-8, RFC 3986's unreserved characters kept", () => {
    expect(headerToken("mcp\u202eevil")).toBe("mcp%E2%80%AEevil")
    expect(headerToken("a\r\nb")).toBe("a%0D%0Ab")
    expect(headerToken("nul\u0000")).toBe("nul%00")
    expect(headerToken("a,b 50%~")).toBe("a%2Cb%2050%25~")
    expect(headerToken("工具")).toBe("%E5%B7%A5%E5%85%B7")
    expect(headerToken("")).toBe("")
  })

  it("gives any well-formed name as header-safe text that decodes back to it", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (name) => {
        const token = headerToken(name)
        expect(token).toMatch(HEADER_SAFE)
        expect(decodeURIComponent(token)).toBe(name)
      }),
      { numRuns: 2_000 }
    )
  })

  it("never throws, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (name) => {
        expect(headerToken(name)).toMatch(HEADER_SAFE)
      }),
      { numRuns: 300 }
    )
  })

  it("lists names comma-separated up to a length, whole names only", () => {
    expect(headerList(["a", "b\u202e", "c,d"], 100)).toBe("a,b%E2%80%AE,c%2Cd")
    expect(headerList(["aaaa", "bbbb", "cccc"], 9)).toBe("aaaa,bbbb")
    expect(headerList(["aaaaaaaaaa"], 9)).toBe("")
  })
})
