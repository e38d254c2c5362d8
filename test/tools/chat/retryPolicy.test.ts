import { describe, expect, it } from "vitest"
import { idempotencyKeyFor } from "../../../src/tools/chat/chatMessage.ts"
import { messagesUrl } from "../../../src/tools/chat/partnerApi.ts"
import { isRetryableStatus } from "../../../src/tools/chat/retryPolicy.ts"

describe("what is retried", () => {
  it("408, 429 and 5xx only", () => {
    expect([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504].filter(isRetryableStatus)).toEqual([
      408,
      429,
      500,
      502,
      503,
      504
    ])
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
