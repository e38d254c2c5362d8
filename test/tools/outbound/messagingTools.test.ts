import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeChatMessage } from "../../../src/tools/chat/chatMessage.ts"
import { makeUrlPolicy } from "../../../src/tools/outbound/urlPolicy.ts"
import { makeWorkplaceMessage } from "../../../src/tools/workplace/workplaceMessage.ts"
import { runTool } from "../../support/fakes/execution.ts"
import { type PartnerFake, startPartnerFake } from "../../support/fakes/partner.ts"
import { type SlackFake, startSlackFake } from "../../support/fakes/slack.ts"

// Request-given URLs are policed like the browser's: the fakes listen on loopback, which the default refuses.
const strict = makeUrlPolicy({ allowPrivate: false, allowedHosts: [] })
const lenient = makeUrlPolicy({ allowPrivate: true, allowedHosts: [] })

const TOKEN = "partner-token-7c2e9b41"
let slack: SlackFake
let partner: PartnerFake

beforeAll(async () => {
  slack = await startSlackFake("T0/B0/outbound-secret-1")
  partner = await startPartnerFake({ token: TOKEN, messengers: ["acct-1"], contacts: ["cand-1"] })
})
afterAll(() => Promise.all([slack.close(), partner.close()]))

describe("outbound policy of the messaging tools", () => {
  it("refuses a webhook URL on a private address unless the server allows it", async () => {
    const context = { platform: "slack", webhookUrl: slack.webhookUrl }
    const refused = await runTool(makeWorkplaceMessage({ policy: strict }), { text: "hi" }, context)
    expect(refused).toMatchObject({ ok: false })
    if (!refused.ok) {
      expect(refused.error).toContain("loopback")
      expect(refused.error).toContain("PARLEY_OUTBOUND_ALLOW_PRIVATE")
      expect(refused.error).not.toContain("outbound-secret")
    }
    expect(slack.received).toHaveLength(0)
    expect(await runTool(makeWorkplaceMessage({ policy: lenient }), { text: "hi" }, context)).toMatchObject({
      ok: true
    })
    expect(slack.received).toHaveLength(1)
  })

  it("refuses a partner API named in tool context on a private address, once, without retrying", async () => {
    const context = { partnerToken: TOKEN, defaultMessengerId: "acct-1", partnerApiUrl: partner.url }
    const refused = await runTool(makeChatMessage({}, { policy: strict }), { to: "cand-1", text: "hi" }, context)
    expect(refused).toMatchObject({ ok: false })
    if (!refused.ok) expect(refused.error).not.toContain("Gave up")
    expect(partner.received).toHaveLength(0)
  })

  it("trusts the partner API the server itself is configured with", async () => {
    const tool = makeChatMessage({ partnerApiBaseUrl: partner.url }, { policy: strict })
    const sent = await runTool(tool, { to: "cand-1", text: "hi" }, {
      partnerToken: TOKEN,
      defaultMessengerId: "acct-1"
    })
    expect(sent).toMatchObject({ ok: true, output: { sent: true } })
    expect(partner.delivered).toHaveLength(1)
  })
})
