import { describe, expect, it } from "vitest"
import { correlationIdFor, uuidV7 } from "../../src/http/CorrelationId.ts"

describe("correlation ids (docs/DESIGN.md §3.7)", () => {
  it("echoes a short safe client id", () => {
    expect(correlationIdFor("req-123_abc.9:x")).toBe("req-123_abc.9:x")
    expect(correlationIdFor("tenant/a@b+c")).toBe("tenant/a@b+c")
  })

  it("replaces unsafe or long client ids with a UUID v7", () => {
    for (const bad of ["a b", "x\r\ny", "<script>", "a".repeat(129), "", "mcp\u202eevil", "x\udc00", "a%20b"]) {
      expect(correlationIdFor(bad)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    }
  })

  it("generates time-ordered, distinct ids", () => {
    const ids = Array.from({ length: 100 }, uuidV7)
    expect(new Set(ids).size).toBe(100)
    expect(ids[0]!.slice(0, 8) <= ids[99]!.slice(0, 8)).toBe(true)
  })
})
