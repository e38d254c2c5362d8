import { createHmac } from "node:crypto"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { makeWorkplaceMessage } from "../../../src/tools/workplace/workplaceMessage.ts"
import { captureConsole } from "../../support/fakes/console.ts"
import { runTool } from "../../support/fakes/execution.ts"
import { type FeishuFake, startFeishuFake } from "../../support/fakes/feishu.ts"
import { closedPort } from "../../support/fakes/server.ts"
import { type SlackFake, startSlackFake } from "../../support/fakes/slack.ts"
import { startWecomFake, type WecomFake } from "../../support/fakes/wecom.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, chatBody, postJson } from "../../support/http.ts"

const WECOM_KEY = "wecom-key-6f1d2c9a"
const FEISHU_TOKEN = "feishu-hook-0b7e41d2"
const FEISHU_SECRET = "feishu-signing-secret-93c1"
const SLACK_PATH = "T0001/B0001/slack-secret-5a8e"

const tool = makeWorkplaceMessage({ timeoutMs: 2_000 })
let gateway: TestGateway
let secret: string
let wecom: WecomFake
let feishu: FeishuFake
let slack: SlackFake

beforeAll(async () => {
  ;[gateway, wecom, feishu, slack] = await Promise.all([
    startGateway({ tools: [tool] }),
    startWecomFake(WECOM_KEY),
    startFeishuFake({ token: FEISHU_TOKEN, secret: FEISHU_SECRET }),
    startSlackFake(SLACK_PATH)
  ])
  ;({ secret } = await gateway.createKey())
})
afterAll(() => Promise.all([gateway.close(), wecom.close(), feishu.close(), slack.close()]))

const contexts = () => ({
  wecom: { platform: "wecom", webhookUrl: wecom.webhookUrl },
  feishu: { platform: "feishu", webhookUrl: feishu.webhookUrl, secret: FEISHU_SECRET },
  lark: { platform: "lark", webhookUrl: feishu.webhookUrl, secret: FEISHU_SECRET },
  slack: { platform: "slack", webhookUrl: slack.webhookUrl }
})

/** The model posts `input` to the group configured in toolContext; returns the tool part of the answer. */
const postThroughChat = async (toolContext: Record<string, unknown>, input: Record<string, unknown>) => {
  gateway.upstream.enqueue(
    { type: "tool-calls", calls: [{ id: "call_1", name: "workplace_message", arguments: input }] },
    { type: "text", text: "Posted." }
  )
  const response = await postJson(
    `${gateway.url}/api/v1/chat`,
    chatBody({ allowedTools: ["workplace_message"], toolContext: { workplace_message: toolContext } }),
    bearer(secret)
  )
  const body = await response.json()
  expect(response.status).toBe(200)
  return { body, part: body.data.messages.at(-1).parts.find((p: { type: string }) => p.type === "dynamic-tool") }
}

const lastJson = (fake: { received: ReadonlyArray<{ json: any }> }) => fake.received.at(-1)?.json

describe("workplace_message through /chat, one wire format per platform", () => {
  let before = { wecom: 0, feishu: 0, slack: 0 }
  beforeEach(() => {
    before = { wecom: wecom.received.length, feishu: feishu.received.length, slack: slack.received.length }
  })

  it("WeCom group robot: text and markdown", async () => {
    const text = await postThroughChat(contexts().wecom, { text: "Candidate Li booked Tuesday 15:00." })
    expect(text.part).toMatchObject({
      state: "output-available",
      output: { sent: true, platform: "wecom", format: "text" }
    })
    const request = wecom.received.at(-1)!
    expect(request.url).toBe(`/cgi-bin/webhook/send?key=${WECOM_KEY}`)
    expect(request.headers["content-type"]).toBe("application/json")
    expect(request.json).toEqual({ msgtype: "text", text: { content: "Candidate Li booked Tuesday 15:00." } })

    await postThroughChat(contexts().wecom, { text: "**Li** booked", format: "markdown" })
    expect(lastJson(wecom)).toEqual({ msgtype: "markdown", markdown: { content: "**Li** booked" } })
    expect(wecom.received.length - before.wecom).toBe(2)
  })

  it("Feishu custom bot, signed: timestamp and HMAC-SHA256 sign as documented; Lark speaks the same", async () => {
    const startedAt = Math.floor(Date.now() / 1000)
    const text = await postThroughChat(contexts().feishu, { text: "New candidate for Riverside." })
    expect(text.part).toMatchObject({ state: "output-available", output: { sent: true, platform: "feishu" } })
    const body = lastJson(feishu)
    expect(Object.keys(body).sort()).toEqual(["content", "msg_type", "sign", "timestamp"])
    expect(body).toMatchObject({ msg_type: "text", content: { text: "New candidate for Riverside." } })
    expect(Number(body.timestamp)).toBeGreaterThanOrEqual(startedAt)
    expect(body.sign).toBe(createHmac("sha256", `${body.timestamp}\n${FEISHU_SECRET}`).update("").digest("base64"))
    expect(feishu.received.at(-1)!.url).toBe(`/open-apis/bot/v2/hook/${FEISHU_TOKEN}`)

    const markdown = await postThroughChat(contexts().lark, { text: "**Li** booked", format: "markdown" })
    expect(markdown.part.output).toEqual({ sent: true, platform: "lark", format: "markdown" })
    expect(lastJson(feishu)).toMatchObject({
      msg_type: "interactive",
      card: { schema: "2.0", body: { elements: [{ tag: "markdown", content: "**Li** booked" }] } }
    })
    expect(feishu.received.length - before.feishu).toBe(2)
  })

  it("Slack incoming webhook: text, and markdown as a markdown block with a text fallback", async () => {
    await postThroughChat(contexts().slack, { text: "Li booked Tuesday." })
    expect(lastJson(slack)).toEqual({ text: "Li booked Tuesday." })
    const markdown = await postThroughChat(contexts().slack, { text: "*Li* booked", format: "markdown" })
    expect(markdown.part.state).toBe("output-available")
    expect(lastJson(slack)).toEqual({ text: "*Li* booked", blocks: [{ type: "markdown", text: "*Li* booked" }] })
  })

  it("a refusal reaches the model as a tool error, and the run goes on", async () => {
    const { body, part } = await postThroughChat({ ...contexts().feishu, secret: "wrong-secret" }, { text: "hi" })
    expect(part).toMatchObject({ state: "output-error" })
    expect(part.errorText).toContain("signature check failed (code 19021)")
    expect(body.data.messages.at(-1).parts.at(-1)).toMatchObject({ type: "text", text: "Posted." })
  })
})

describe("provider error codes become clear tool errors", () => {
  const cases: Array<[string, () => Promise<void>, keyof ReturnType<typeof contexts>, RegExp]> = [
    [
      "WeCom 93000",
      async () => wecom.failNext(93000),
      "wecom",
      /^WeCom refused the message: the webhook URL or its key is invalid \(errcode 93000\)$/
    ],
    [
      "WeCom 45009",
      async () => wecom.failNext(45009),
      "wecom",
      /rate limit was reached \(errcode 45009: at most 20 messages a minute\)/
    ],
    ["WeCom 45002", async () => wecom.failNext(45002), "wecom", /too long \(errcode 45002\)/],
    [
      "WeCom unknown",
      async () => wecom.failNext(40035),
      "wecom",
      /^WeCom refused the message: errcode 40035 \(unknown error\)$/
    ],
    [
      "WeCom echoing the key",
      async () =>
        wecom.failNext({ errcode: 40058, errmsg: `key ${WECOM_KEY} is not allowed, hint: [1], from ip: 203.0.113.7` }),
      "wecom",
      /^WeCom refused the message: errcode 40058 \(key \[redacted\] is not allowed\)$/
    ],
    ["Feishu 11232", async () => feishu.failNext(11232), "feishu", /rate limit was reached \(code 11232/],
    ["Feishu 19022", async () => feishu.failNext(19022), "feishu", /not on the bot's allow-list \(code 19022\)/],
    [
      "Feishu 19024",
      async () => feishu.failNext(19024),
      "feishu",
      /lacks every keyword the bot requires \(code 19024\)/
    ],
    ["Feishu 9499", async () => feishu.failNext(9499), "feishu", /malformed \(code 9499\)/],
    [
      "Slack 410",
      async () => slack.failNext({ status: 410, body: "channel_is_archived" }),
      "slack",
      /^Slack refused the message: the webhook's channel is archived \(HTTP 410 channel_is_archived\)\.$/
    ],
    [
      "Slack 403",
      async () => slack.failNext({ status: 403, body: "action_prohibited" }),
      "slack",
      /admin restricts posting/
    ],
    [
      "Slack 429",
      async () => slack.failNext({ status: 429, body: "rate_limited", headers: { "retry-after": "30" } }),
      "slack",
      /rate limited \(HTTP 429\)\. Try again in 30 s\./
    ]
  ]

  it.each(cases)("%s", async (_name, arrange, platform, expected) => {
    await arrange()
    const result = await runTool(tool, { text: "hi" }, contexts()[platform])
    expect(result).toMatchObject({ ok: false })
    expect(!result.ok && result.error).toMatch(expected)
  })

  it("maps a wrong webhook, found by the fake itself, on each platform", async () => {
    const wrong = {
      wecom: { platform: "wecom", webhookUrl: `${wecom.url}/cgi-bin/webhook/send?key=not-the-key` },
      feishu: { platform: "feishu", webhookUrl: `${feishu.url}/open-apis/bot/v2/hook/not-the-token` },
      slack: { platform: "slack", webhookUrl: `${slack.url}/services/T0001/B0001/not-the-secret` }
    }
    expect(await runTool(tool, { text: "hi" }, wrong.wecom)).toMatchObject({
      error: expect.stringContaining("errcode 93000")
    })
    expect(await runTool(tool, { text: "hi" }, wrong.feishu)).toMatchObject({
      error: expect.stringContaining("code 19001")
    })
    expect(await runTool(tool, { text: "hi" }, wrong.slack)).toMatchObject({
      error: "Slack refused the message: the webhook URL is invalid or was disabled (HTTP 404 no_service)."
    })
  })

  it("refuses a message over the platform's limit before sending it", async () => {
    const before = wecom.received.length
    const result = await runTool(tool, { text: "字".repeat(700) }, contexts().wecom)
    expect(result).toEqual({ ok: false, error: "WeCom takes at most 2048 bytes of text; this is 2100." })
    expect(wecom.received.length).toBe(before)
  })

  it("names an unreachable webhook without its URL", async () => {
    const webhookUrl = `http://127.0.0.1:${await closedPort()}/services/T/B/unreachable-secret`
    const result = await runTool(tool, { text: "hi" }, { platform: "slack", webhookUrl })
    expect(result).toEqual({ ok: false, error: "Could not reach the Slack webhook (ECONNREFUSED)." })
  })
})

describe("context validation (validateOnly)", () => {
  const report = async (body: Record<string, unknown>) => {
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ validateOnly: true, allowedTools: ["workplace_message"], ...body }),
      bearer(secret)
    )
    expect(response.status).toBe(200)
    return (await response.json()).tools[0]
  }

  it("reports missing platform and webhookUrl", async () => {
    expect(await report({})).toMatchObject({ valid: false, missingContext: ["platform", "webhookUrl"] })
  })

  it("reports a wrong platform and a malformed URL without quoting the URL", async () => {
    const tool = await report({
      toolContext: { workplace_message: { platform: "teams", webhookUrl: `ftp://hooks/${SLACK_PATH}` } }
    })
    expect(tool.structureErrors).toEqual([
      { field: "platform", issues: ["Expected \"wecom\" | \"feishu\" | \"lark\" | \"slack\""] },
      { field: "webhookUrl", issues: ["Expected an http(s) URL"] }
    ])
    expect(JSON.stringify(tool)).not.toContain(SLACK_PATH)
  })

  it("takes toolContext over context for this tool", async () => {
    expect(
      await report({
        context: { platform: "teams", webhookUrl: "nope" },
        toolContext: { workplace_message: contexts().slack }
      })
    ).toEqual({ name: "workplace_message", valid: true })
  })
})

describe("secrets", () => {
  const secrets = [WECOM_KEY, FEISHU_TOKEN, FEISHU_SECRET, SLACK_PATH.split("/").at(-1)!]

  it("never appear in tool outputs, errors, history or logs", async () => {
    const console = captureConsole()
    const seen: Array<string> = []
    try {
      for (const context of Object.values(contexts())) {
        seen.push(JSON.stringify((await postThroughChat(context, { text: "ok" })).body))
      }
      wecom.failNext(93000)
      seen.push(JSON.stringify((await postThroughChat(contexts().wecom, { text: "fails" })).body))
      seen.push(
        JSON.stringify(
          (await postThroughChat({ ...contexts().feishu, secret: "wrong-secret" }, { text: "fails" })).body
        )
      )
      const unreachable = `http://127.0.0.1:${await closedPort()}/services/${SLACK_PATH}`
      seen.push(JSON.stringify(await runTool(tool, { text: "hi" }, { platform: "slack", webhookUrl: unreachable })))
      const malformed = await postJson(
        `${gateway.url}/api/v1/chat`,
        chatBody({
          allowedTools: ["workplace_message"],
          toolContext: { workplace_message: { platform: "slack", webhookUrl: `ftp://x/${SLACK_PATH}` } }
        }),
        bearer(secret)
      )
      expect(malformed.status).toBe(400)
      seen.push(await malformed.text())
    } finally {
      console.restore()
    }
    // The refusals were logged, so the check below looked at real log lines.
    expect(console.text()).toContain("workplace_message: the webhook refused the message")
    for (const text of [...seen, console.text()]) {
      for (const value of secrets) expect(text).not.toContain(value)
    }
  })
})
