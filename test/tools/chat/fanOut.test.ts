import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeChatMessage } from "../../../src/tools/chat/chatMessage.ts"
import { type PartnerFake, startPartnerFake } from "../../support/fakes/partner.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, chatBody, postJson } from "../../support/http.ts"

const TOKEN = "pt-live-fan-out-51ac"
const FROM = "acct-recruiter"
const CALLS = 500
const AT_ONCE = 4

let partner: PartnerFake
let gateway: TestGateway
let secret: string

beforeAll(async () => {
  const contacts = Array.from({ length: CALLS }, (_, i) => `cand-${i}`)
  // Each answer takes a while, so calls not held back would pile up at the partner.
  partner = await startPartnerFake({ token: TOKEN, messengers: [FROM], contacts, delayMs: 5 })
  gateway = await startGateway({
    tools: [makeChatMessage({ partnerApiBaseUrl: partner.url })],
    toolConcurrency: AT_ONCE
  })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => Promise.all([gateway.close(), partner.close()]))

describe("one model step with 500 chat_message calls", () => {
  it(`sends them all, never more than PARLEY_TOOL_CONCURRENCY (${AT_ONCE}) at once`, async () => {
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: Array.from({ length: CALLS }, (_, i) => ({
          id: `call_${i}`,
          name: "chat_message",
          arguments: { to: `cand-${i}`, text: `Hello ${i}` }
        }))
      },
      { type: "text", text: "Sent." }
    )
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["chat_message"], context: { partnerToken: TOKEN, defaultMessengerId: FROM } }),
      bearer(secret)
    )
    expect(response.status).toBe(200)
    const parts = (await response.json()).data.messages.at(-1).parts
    const outputs = parts.filter((part: { type: string }) => part.type === "dynamic-tool")
    expect(outputs).toHaveLength(CALLS)
    expect(outputs.every((part: { state: string }) => part.state === "output-available")).toBe(true)
    expect(partner.delivered).toHaveLength(CALLS)
    expect(partner.mostInFlight()).toBeLessThanOrEqual(AT_ONCE)
    expect(partner.mostInFlight()).toBeGreaterThan(1) // still concurrent
  }, 60_000)
})
