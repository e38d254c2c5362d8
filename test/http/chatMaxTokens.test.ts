import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

let gateway: TestGateway
let secret: string

// test/m1 can generate up to 16,384 tokens, as the catalog says.
beforeAll(async () => {
  gateway = await startGateway({ maxOutputTokens: 16_384 })
  ;({ secret } = await gateway.createKey())
  gateway.upstream.respondWith(() => ({ type: "text", text: "ok" }))
})
afterAll(() => gateway.close())

/** The `max_tokens` the upstream was sent for a request with these fields, both ways. */
const maxTokensSent = async (fields: Record<string, unknown>) => {
  const sent = []
  for (const stream of [false, true]) {
    const before = gateway.upstream.requests.length
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream, ...fields }), bearer(secret))
    expect(response.status).toBe(200)
    await response.text()
    sent.push(gateway.upstream.requests[before]!.body.max_tokens)
  }
  expect(sent[0]).toBe(sent[1])
  return sent[0]
}

describe("max_tokens (issue 11 item 12, docs/DESIGN.md §3.11)", () => {
  it("is not sent unless asked for: not the model's maximum on every call", async () => {
    expect(await maxTokensSent({})).toBeUndefined()
    expect(await maxTokensSent({ prune: true })).toBeUndefined()
    expect(await maxTokensSent({ prune: true, pruneOptions: { targetTokens: 5_000 } })).toBeUndefined()
  })

  it("is pruneOptions.maxOutputTokens with prune=true, capped by what the model can generate", async () => {
    expect(await maxTokensSent({ prune: true, pruneOptions: { maxOutputTokens: 500 } })).toBe(500)
    expect(await maxTokensSent({ prune: true, pruneOptions: { maxOutputTokens: 100_000 } })).toBe(16_384)
  })

  it("is not sent for pruneOptions without prune=true, nor for a reserve of 0", async () => {
    expect(await maxTokensSent({ pruneOptions: { maxOutputTokens: 500 } })).toBeUndefined()
    expect(await maxTokensSent({ prune: true, pruneOptions: { maxOutputTokens: 0 } })).toBeUndefined()
  })
})
