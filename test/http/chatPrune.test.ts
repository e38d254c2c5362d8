import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway()
  ;({ secret } = await gateway.createKey())
  gateway.upstream.respondWith(() => ({ type: "text", text: "ok" }))
})
afterAll(() => gateway.close())

const longHistory = Array.from({ length: 20 }, (_, i) => ({
  role: i % 2 === 0 ? "user" : "assistant",
  content: `message ${i}: ` + "lorem ipsum dolor sit amet ".repeat(20)
}))

const chat = (body: unknown) => postJson(`${gateway.url}/api/v1/chat`, body, bearer(secret))

describe("prune=true (rule 10)", () => {
  it("removes old messages to fit the budget, keeps the recent ones and sets X-Message-Pruned", async () => {
    const before = gateway.upstream.requests.length
    const response = await chat(chatBody({
      messages: longHistory,
      prune: true,
      pruneOptions: { targetTokens: 600, preserveRecentMessages: 2, maxOutputTokens: 1_000 }
    }))
    expect(response.status).toBe(200)
    expect(response.headers.get("x-message-pruned")).toBe("true")
    const sent = gateway.upstream.requests[before]!.body.messages
    expect(sent[0].role).toBe("system")
    expect(sent.length).toBeLessThan(longHistory.length + 1)
    expect(sent.at(-1).content).toContain("message 19:")
    expect(sent.at(-2).content).toContain("message 18:")
    // The answer still carries the whole input history: nothing the caller sent is lost.
    expect((await response.json()).data.messages).toHaveLength(longHistory.length + 1)
  })

  it("leaves a history under budget alone and sends no header", async () => {
    const response = await chat(chatBody({ prune: true }))
    expect(response.status).toBe(200)
    expect(response.headers.get("x-message-pruned")).toBeNull()
  })

  it("ignores pruneOptions without prune=true", async () => {
    const response = await chat(chatBody({ messages: longHistory, pruneOptions: { targetTokens: 10 } }))
    expect(response.headers.get("x-message-pruned")).toBeNull()
  })

  it("refuses a target above the model's window", async () => {
    const response = await chat(chatBody({ prune: true, pruneOptions: { targetTokens: 200_000 } }))
    expect(response.status).toBe(400)
    expect((await response.json()).error).toBe("BadRequest")
  })
})
