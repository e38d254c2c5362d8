import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeChatMessage } from "../../../src/tools/chat/chatMessage.ts"
import { captureConsole } from "../../support/fakes/console.ts"
import { runTool } from "../../support/fakes/execution.ts"
import { type PartnerFake, startPartnerFake } from "../../support/fakes/partner.ts"
import { closedPort } from "../../support/fakes/server.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, chatBody, postJson } from "../../support/http.ts"

const TOKEN = "pt-live-7c2e9b41d0aa"
const FROM = "acct-recruiter"
const TO = "cand-42"
const KEY_PATTERN = /^call_1\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let partner: PartnerFake
let gateway: TestGateway
const logLines: Array<string> = []
let secret: string
let baseUrl: string

const fastRetries = { baseDelayMs: 20, maxDelayMs: 80, maxRetryAfterMs: 5_000, timeoutMs: 2_000 }
const context = { partnerToken: TOKEN, defaultMessengerId: FROM }

beforeAll(async () => {
  partner = await startPartnerFake({ token: TOKEN, messengers: [FROM], contacts: [TO], prefix: "/partner" })
  baseUrl = `${partner.url}/partner`
  gateway = await startGateway({
    tools: [makeChatMessage({ partnerApiBaseUrl: baseUrl }, { retry: fastRetries })],
    // The gateway's log lines as production writes them, for the secrets check below.
    observe: { logSink: (line) => void logLines.push(line) }
  })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => Promise.all([gateway.close(), partner.close()]))

const tool = () => makeChatMessage({ partnerApiBaseUrl: baseUrl }, { retry: fastRetries })

const sendThroughChat = async (
  body: Record<string, unknown>,
  input: Record<string, unknown> = { to: TO, text: "See you Tuesday!" }
) => {
  gateway.upstream.enqueue(
    { type: "tool-calls", calls: [{ id: "call_1", name: "chat_message", arguments: input }] },
    { type: "text", text: "Done." }
  )
  const response = await postJson(
    `${gateway.url}/api/v1/chat`,
    chatBody({ allowedTools: ["chat_message"], context, ...body }),
    bearer(secret)
  )
  expect(response.status).toBe(200)
  return response
}

const toolPart = (body: any) => body.data.messages.at(-1).parts.find((p: { type: string }) => p.type === "dynamic-tool")

describe("chat_message through /chat", () => {
  it("sends {from, to, text} with the bearer token and an idempotency key", async () => {
    const before = partner.received.length
    const body = await (await sendThroughChat({})).json()
    expect(toolPart(body)).toMatchObject({
      state: "output-available",
      output: { sent: true, messageId: "msg_1", status: "sent", from: FROM, to: TO, attempts: 1 }
    })
    expect(partner.received.length - before).toBe(1)
    const request = partner.received.at(-1)!
    expect(request.method).toBe("POST")
    expect(request.url).toBe("/partner/v1/messages")
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(request.headers["content-type"]).toBe("application/json")
    expect(request.headers["idempotency-key"]).toMatch(KEY_PATTERN)
    expect(request.json).toEqual({ from: FROM, to: TO, text: "See you Tuesday!" })
    expect(partner.delivered.at(-1)).toMatchObject({ from: FROM, to: TO, text: "See you Tuesday!" })
  })

  it("takes toolContext.chat_message.partnerApiUrl over the server's base URL", async () => {
    const other = await startPartnerFake({ token: "other-token-1234", messengers: ["acct-2"], contacts: [TO] })
    try {
      const body = await (await sendThroughChat({
        toolContext: {
          chat_message: { partnerApiUrl: other.url, partnerToken: "other-token-1234", defaultMessengerId: "acct-2" }
        }
      })).json()
      expect(toolPart(body).output).toMatchObject({ sent: true, from: "acct-2" })
      expect(other.delivered).toHaveLength(1)
    } finally {
      await other.close()
    }
  })
})

describe("retries", () => {
  it("retries 503 and 429 with the same key, honouring Retry-After, and sends once", async () => {
    const before = partner.received.length
    const delivered = partner.delivered.length
    partner.failNext({ status: 503, body: { error: { code: "unavailable", message: "try later" } } }, {
      status: 429,
      body: { error: { code: "rate_limited", message: "slow down" } },
      headers: { "retry-after": "1" }
    })
    const result = await runTool(tool(), { to: TO, text: "Retry me" }, context)
    expect(result).toMatchObject({ ok: true, output: { sent: true, attempts: 3 } })
    const requests = partner.received.slice(before)
    expect(requests).toHaveLength(3)
    expect(new Set(requests.map((r) => r.headers["idempotency-key"])).size).toBe(1)
    expect(requests[2]!.at - requests[1]!.at).toBeGreaterThanOrEqual(950)
    expect(partner.delivered.length - delivered).toBe(1)
  })

  it("a retry after a lost answer never sends twice", async () => {
    const delivered = partner.delivered.length
    partner.loseNextAnswer()
    const result = await runTool(tool(), { to: TO, text: "Only once" }, context)
    expect(result).toMatchObject({ ok: true, output: { attempts: 2, messageId: `msg_${delivered + 1}` } })
    expect(partner.delivered.length - delivered).toBe(1)
  })

  it("stops at once when Retry-After is longer than it would wait", async () => {
    const before = partner.received.length
    partner.failNext({ status: 429, body: {}, headers: { "retry-after": "120" } })
    expect(await runTool(tool(), { to: TO, text: "hi" }, context)).toEqual({
      ok: false,
      error: "The partner API is busy (HTTP 429); try again in 120 s."
    })
    expect(partner.received.length - before).toBe(1)
  })

  it("gives up after the last attempt, and on an unreachable API", async () => {
    partner.failNext(...Array.from({ length: 4 }, () => ({ status: 502, body: "bad gateway" })))
    expect(await runTool(tool(), { to: TO, text: "hi" }, context)).toEqual({
      ok: false,
      error: "The partner API answered HTTP 502. Gave up after 4 attempts."
    })
    const port = await closedPort()
    expect(
      await runTool(makeChatMessage({ partnerApiBaseUrl: `http://127.0.0.1:${port}` }, { retry: fastRetries }), {
        to: TO,
        text: "hi"
      }, context)
    )
      .toEqual({
        ok: false,
        error: "Could not reach the partner messaging API (ECONNREFUSED). Gave up after 4 attempts."
      })
  })
})

describe("partner errors become clear tool errors, without retrying", () => {
  it.each([
    [
      "a wrong token",
      { ...context, partnerToken: "pt-wrong-0000" },
      { to: TO, text: "hi" },
      "The partner API did not accept context.partnerToken (HTTP 401) (unauthorized: Invalid token)."
    ],
    [
      "another account",
      { ...context, defaultMessengerId: "acct-other" },
      { to: TO, text: "hi" },
      "context.partnerToken may not send as \"acct-other\" (HTTP 403) (forbidden_sender: Token may not send as this account)."
    ],
    [
      "an unknown contact",
      context,
      { to: "cand-nobody", text: "hi" },
      "The partner API knows no contact \"cand-nobody\" or account \"acct-recruiter\" (HTTP 404) (unknown_contact: No such contact)."
    ]
  ])("%s", async (_name, ctx, input, error) => {
    const before = partner.received.length
    expect(await runTool(tool(), input, ctx)).toEqual({ ok: false, error })
    expect(partner.received.length - before).toBe(1)
  })

  it("checks the optional partnerApiUrl when it runs", async () => {
    expect(await runTool(tool(), { to: TO, text: "hi" }, { ...context, partnerApiUrl: "ftp://partner" })).toEqual({
      ok: false,
      error: "The chat_message context is malformed: Expected an http(s) URL\n  at [\"partnerApiUrl\"]"
    })
  })

  it("without a partner API on the server, needs one in its context", async () => {
    expect(await runTool(makeChatMessage({}), { to: TO, text: "hi" }, context)).toEqual({
      ok: false,
      error: "The chat_message context is malformed: Missing key\n  at [\"partnerApiUrl\"]"
    })
  })
})

describe("context validation (validateOnly)", () => {
  const report = async (body: Record<string, unknown>) => {
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ validateOnly: true, allowedTools: ["chat_message"], ...body }),
      bearer(secret)
    )
    return (await response.json()).tools[0]
  }

  it("reports a null token and a missing account as missing", async () => {
    expect(await report({ context: { partnerToken: null } })).toMatchObject({
      valid: false,
      missingContext: ["partnerToken", "defaultMessengerId"]
    })
  })

  it("reports structure errors without quoting the token, and takes toolContext over context", async () => {
    const tool = await report({ context: { partnerToken: "", defaultMessengerId: "" } })
    expect(tool.structureErrors).toEqual([
      { field: "partnerToken", issues: ["Expected a value with a length of at least 1"] },
      { field: "defaultMessengerId", issues: ["Expected a value with a length of at least 1"] }
    ])

    expect(await report({ context: { partnerToken: null }, toolContext: { chat_message: context } })).toEqual({
      name: "chat_message",
      valid: true
    })
  })
})

describe("no partner API configured on the server (PARLEY_PARTNER_API_URL unset)", () => {
  let bare: TestGateway
  let bareSecret: string
  beforeAll(async () => {
    bare = await startGateway({ tools: [makeChatMessage({}, { retry: fastRetries })] })
    ;({ secret: bareSecret } = await bare.createKey())
  })
  afterAll(() => bare.close())

  const post = (body: Record<string, unknown>) =>
    postJson(`${bare.url}/api/v1/chat`, chatBody({ allowedTools: ["chat_message"], ...body }), bearer(bareSecret))

  it("validateOnly reports chat_message invalid, naming partnerApiUrl, unless its context gives one", async () => {
    const report = await (await post({ validateOnly: true, context })).json()
    expect(report).toMatchObject({ valid: false, model: { valid: true } })
    expect(report.tools).toEqual([{
      name: "chat_message",
      valid: false,
      missingContext: ["partnerApiUrl"],
      error: "Missing required context: partnerApiUrl"
    }])
    const given = await (await post({
      validateOnly: true,
      context,
      toolContext: { chat_message: { partnerApiUrl: baseUrl } }
    })).json()
    expect(given).toMatchObject({ valid: true, tools: [{ name: "chat_message", valid: true }] })
  })

  it("a run refuses it before starting (contextStrategy=error) or skips it (skip)", async () => {
    const refused = await post({ context })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ details: { missingContext: ["partnerApiUrl"] } })
    bare.upstream.enqueue({ type: "text", text: "ok" })
    const skipped = await post({ context, contextStrategy: "skip" })
    expect(skipped.status).toBe(200)
    expect(skipped.headers.get("x-tools-skipped")).toBe("chat_message")
    await skipped.text()
  })
})

describe("secrets", () => {
  it("the token never appears in outputs, errors, history, streams or logs", async () => {
    const console = captureConsole()
    const seen: Array<string> = []
    try {
      seen.push(await (await sendThroughChat({})).text())
      seen.push(await (await sendThroughChat({ stream: true })).text())
      partner.failNext(
        { status: 503, body: "busy" },
        { status: 400, body: { error: { code: "bad_request", message: `token ${TOKEN} cannot send this` } } }
      )
      const failed = await (await sendThroughChat({})).text()
      expect(failed).toContain("token [redacted] cannot send this")
      seen.push(failed)
      seen.push(
        JSON.stringify(await runTool(tool(), { to: TO, text: "hi" }, { ...context, partnerToken: `${TOKEN}-x` }))
      )
    } finally {
      console.restore()
    }
    const logs = logLines.join("\n")
    expect(logs).toContain("chat_message: retrying the partner API")
    for (const text of [...seen, console.text(), logs]) expect(text).not.toContain(TOKEN)
  })
})
