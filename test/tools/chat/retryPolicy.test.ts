import { describe, expect, it } from "vitest"
import { messagesUrl } from "../../../src/tools/chat/partnerApi.ts"
import { backoffMs, defaultRetryPolicy, isRetryableStatus, retryAfterMs } from "../../../src/tools/chat/retryPolicy.ts"
import { idempotencyKeyFor } from "../../../src/tools/chat/chatMessage.ts"

describe("retryAfterMs", () => {
  const now = Date.parse("2030-01-01T00:00:00Z")

  it("reads delta-seconds and HTTP dates", () => {
    expect(retryAfterMs("3", now)).toBe(3_000)
    expect(retryAfterMs("Tue, 01 Jan 2030 00:00:05 GMT", now)).toBe(5_000)
    expect(retryAfterMs("Mon, 31 Dec 2029 23:59:00 GMT", now)).toBe(0)
  })

  it("ignores what it cannot read", () => {
    for (const header of [null, "", "soon", "-1", "1.5"]) expect(retryAfterMs(header, now)).toBeUndefined()
  })
})

describe("backoffMs", () => {
  it("doubles per retry, with jitter below the base, up to the cap", () => {
    const policy = { ...defaultRetryPolicy, baseDelayMs: 100, maxDelayMs: 1_000 }
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(policy, retry, () => 0))).toEqual([100, 200, 400, 800, 1_000])
    expect(backoffMs(policy, 1, () => 0.999)).toBe(199)
  })
})

describe("what is retried", () => {
  it("408, 429 and 5xx only", () => {
    expect([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504].filter(isRetryableStatus)).toEqual([408, 429, 500, 502, 503, 504])
  })
})

describe("wire details", () => {
  it("keeps a base URL's path prefix", () => {
    expect(messagesUrl("https://partner.example/api")).toBe("https://partner.example/api/v1/messages")
    expect(messagesUrl("https://partner.example/api/")).toBe("https://partner.example/api/v1/messages")
    expect(messagesUrl("https://partner.example")).toBe("https://partner.example/v1/messages")
  })

  it("makes one readable, unique idempotency key per tool call", () => {
    const first = idempotencyKeyFor("call_0")
    expect(first).toMatch(/^call_0\.[0-9a-f-]{36}$/)
    expect(idempotencyKeyFor("call_0")).not.toBe(first)
    expect(idempotencyKeyFor("toolu_01/ä b")).toMatch(/^toolu_01b\./)
    expect(idempotencyKeyFor("ü")).toMatch(/^call\./)
  })
})
