import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

let gateway: TestGateway
beforeAll(async () => {
  gateway = await startGateway()
})
afterAll(() => gateway.close())

const chat = (secret: string) => {
  gateway.upstream.enqueue({ type: "text", text: "ok" })
  return postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(secret))
}

const rateHeaders = (response: Response) =>
  ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((name) => response.headers.get(name))

describe("limits on POST /api/v1/chat (docs/DESIGN.md §11)", () => {
  it("answers requestsPerMinute exactly, then 429 with Retry-After and details", async () => {
    const { secret } = await gateway.createKey({ limits: { requestsPerMinute: 2 } })
    const first = await chat(secret)
    expect(first.status).toBe(200)
    expect(rateHeaders(first)).toEqual(["2", "1", "60"])
    const second = await chat(secret)
    expect(second.status).toBe(200)
    expect(second.headers.get("ratelimit-remaining")).toBe("0")
    const refused = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(secret))
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThanOrEqual(59)
    expect(retryAfter).toBeLessThanOrEqual(60)
    const body = await refused.json()
    expect(body).toMatchObject({
      error: "TooManyRequests",
      statusCode: 429,
      details: { limit: "requestsPerMinute", scope: "key" }
    })
    expect(Date.parse(body.details.resetAt) - Date.now()).toBeGreaterThan(58_000)
    expect(body.correlationId).toBe(refused.headers.get("x-correlation-id"))
  })

  it("frees a concurrentRequests place when the answer ends", async () => {
    const { secret } = await gateway.createKey({ limits: { concurrentRequests: 1 } })
    for (let i = 0; i < 3; i++) {
      const answer = await chat(secret)
      expect(answer.status).toBe(200)
      expect(rateHeaders(answer)).toEqual(["1", "0", "1"])
    }
  })

  it("admits concurrentRequests exactly, refuses the next with Retry-After, and a retry after it succeeds", async () => {
    const { id, secret } = await gateway.createKey({ limits: { concurrentRequests: 2 } })
    gateway.upstream.enqueue(
      { type: "text", text: "slow", delayMs: 400 },
      { type: "text", text: "slow", delayMs: 400 }
    )
    const before = gateway.upstream.requests.length
    const held = [
      postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(secret)),
      postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(secret))
    ]
    // Both are in flight once the upstream has their calls.
    const start = Date.now()
    while (gateway.upstream.requests.length - before < 2 && Date.now() - start < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const refused = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(secret))
    expect(refused.status).toBe(429)
    expect(refused.headers.get("retry-after")).toBe("1")
    const body = await refused.json()
    expect(body.details).toEqual({ limit: "concurrentRequests", scope: "key" })
    expect((await Promise.all(held)).map((answer) => answer.status)).toEqual([200, 200])
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect((await chat(secret)).status).toBe(200)
    const rows = await gateway.ledgerRows({ keyId: id })
    expect(rows.filter((row) => row.status === 429).map((row) => [row.outcome, row.refusedLimit])).toEqual([
      ["rejected", "concurrentRequests"]
    ])
  })

  it("changes nothing for a key without limits: no headers", async () => {
    const { secret } = await gateway.createKey()
    const answer = await chat(secret)
    expect(answer.status).toBe(200)
    expect(rateHeaders(answer)).toEqual([null, null, null])
  })
})
